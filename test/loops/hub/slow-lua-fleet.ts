// Test support: a fleet of WorkerPools placed Divided on its clusters, whose interpreter
// customization runs about 0.3 s of Lua in ReviseReplica and AggregateStatus (and GetReplicas
// when asked), to show whether the hub's event loop keeps answering while scripts run.
import { emitYaml } from '../../../src/core/format/emit-yaml.js';

/** About 0.3 s of Lua on this machine (35 ms a million additions). */
export const SLOW = 'local x = 0 for i = 1, 8000000 do x = x + i end';

/** Returns the fleet's files by path. */
export function slowLuaFleetFiles(opts: {
  clusters: readonly string[];
  pools: number;
  /** Whether GetReplicas is slow too (ReviseReplica and AggregateStatus always are). */
  slowGetReplicas: boolean;
}): Record<string, string> {
  const { clusters } = opts;
  const files: Record<string, string> = {
    'clusters.yaml': clusters
      .map((name) =>
        emitYaml({
          apiVersion: 'cluster.karmada.io/v1alpha1',
          kind: 'Cluster',
          metadata: { name },
          spec: { syncMode: 'Pull' },
        }),
      )
      .join('---\n'),
    'apps/namespace.yaml': emitYaml({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }),
    'policies/pools.yaml': emitYaml({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'pools', namespace: 'shop' },
      spec: {
        resourceSelectors: [{ apiVersion: 'example.com/v1', kind: 'WorkerPool' }],
        placement: {
          clusterAffinity: { clusterNames: clusters },
          replicaScheduling: {
            replicaSchedulingType: 'Divided',
            replicaDivisionPreference: 'Weighted',
            weightPreference: {
              staticWeightList: clusters.map((name) => ({
                targetCluster: { clusterNames: [name] },
                weight: 1,
              })),
            },
          },
        },
      },
    }),
    'interpreter/pool.yaml': emitYaml({
      apiVersion: 'config.karmada.io/v1alpha1',
      kind: 'ResourceInterpreterCustomization',
      metadata: { name: 'pool' },
      spec: {
        target: { apiVersion: 'example.com/v1', kind: 'WorkerPool' },
        customizations: {
          replicaResource: {
            luaScript: `function GetReplicas(p) ${opts.slowGetReplicas ? SLOW : ''} return p.spec.workers end`,
          },
          replicaRevision: {
            luaScript: `function ReviseReplica(p, n) ${SLOW} p.spec.workers = n return p end`,
          },
          statusAggregation: {
            luaScript: `function AggregateStatus(p, items) ${SLOW} p.status = { clusters = #(items or {}) } return p end`,
          },
        },
      },
    }),
  };
  for (let i = 0; i < opts.pools; i++) {
    files[`apps/pool-${i}.yaml`] = emitYaml({
      apiVersion: 'example.com/v1',
      kind: 'WorkerPool',
      metadata: { name: `pool-${i}`, namespace: 'shop' },
      spec: { workers: 40 + i },
    });
  }
  return files;
}
