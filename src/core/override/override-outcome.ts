import type { KubeObject } from '../model/kube-object.js';

/** The result of overriding one object for one cluster: the overridden copy, or why it failed. */
export type OverrideOutcome = { ok: true; object: KubeObject } | { ok: false; error: string };
