// The exported EndpointSlices of every cluster, as the hub reads them from the agents' reports
// (multi-cluster services): what Snapshot.exportedSlices holds, and a warning for each refused file.
import type { Diagnostic } from '../model/diagnostic.js';
import type { ExportedSlice } from '../model/exported-slice.js';
import type { AgentReport } from './status-branch.js';

/**
 * Returns the exported EndpointSlices each registered cluster's report carries, by cluster, and
 * a warning naming each refused file (cluster, path, reason). A cluster no Cluster document
 * registers (its branch is tombstoned), or whose agent reports its branch tombstoned, exports
 * nothing.
 */
export function exportedSlicesByCluster(
  reports: ReadonlyMap<string, AgentReport>,
  registered: ReadonlySet<string>,
): { slices: Map<string, ExportedSlice[]>; diagnostics: Diagnostic[] } {
  const slices = new Map<string, ExportedSlice[]>();
  const diagnostics: Diagnostic[] = [];
  for (const [cluster, report] of [...reports].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const tombstoned = report.conditions?.some((c) => c.type === 'Tombstoned' && c.status === 'True');
    if (!registered.has(cluster) || tombstoned) continue;
    // The branch names the cluster: a slice says it is that cluster's, whatever the report says.
    if (report.exports?.length)
      slices.set(
        cluster,
        report.exports.map((s) => ({ ...s, cluster })),
      );
    for (const problem of report.exportProblems ?? []) {
      diagnostics.push({
        severity: 'warning',
        code: 'ExportRefused',
        subject: problem.path,
        cluster,
        message: `the exported EndpointSlice on ${cluster}'s status branch is refused (its other slices are read): ${problem.message}`,
      });
    }
  }
  return { slices, diagnostics };
}
