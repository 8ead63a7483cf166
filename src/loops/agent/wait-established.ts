// Waiting for CustomResourceDefinitions to be served: a custom resource applied before its CRD
// is Established is refused ("no matches for kind"), so the agent waits between stage 0 and
// the stages that may hold custom resources (Flux's ApplyAllStaged does the same).
import { getPath } from '../../core/model/kube-object.js';
import type { Clock } from '../runtime/clock.js';
import type { ClusterApi } from './cluster-api.js';
import { pollUntil } from './poll-until.js';

const crdRef = (name: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  namespace: '',
  name,
});

/** Returns whether a CRD's Established condition is True. */
function isEstablished(crd: unknown): boolean {
  const conditions = getPath(crd, ['status', 'conditions']);
  if (!Array.isArray(conditions)) return false;
  return conditions.some((c) => getPath(c, ['type']) === 'Established' && getPath(c, ['status']) === 'True');
}

/** Waits until every named CRD is Established; returns the names still not Established at the timeout. */
export async function waitForEstablished(opts: {
  client: ClusterApi;
  clock: Clock;
  names: readonly string[];
  timeoutMs: number;
  pollMs?: number;
}): Promise<string[]> {
  let pending = [...opts.names];
  await pollUntil({
    clock: opts.clock,
    timeoutMs: opts.timeoutMs,
    intervalMs: opts.pollMs ?? 200,
    check: async () => {
      const states = await Promise.all(
        pending.map(async (name) => ({
          name,
          ok: isEstablished(await opts.client.get(crdRef(name)).catch(() => undefined)),
        })),
      );
      pending = states.filter((s) => !s.ok).map((s) => s.name);
      return pending.length === 0;
    },
  });
  return pending;
}
