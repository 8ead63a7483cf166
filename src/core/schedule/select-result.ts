import type { ClusterDetail } from './cluster-detail.js';

/** The clusters a selection step keeps, or why it could keep none. */
export type SelectResult = { ok: true; clusters: ClusterDetail[] } | { ok: false; message: string };
