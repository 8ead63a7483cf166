// The agents' status branches, as the hub reads them (docs/architecture.md#status-branches): each
// `<prefix>status/<cluster>` holds one agent's report. Cluster status feeds scheduling (API
// enablement, available replicas, the not-ready taint); per-object status is aggregated into
// the binding records (aggregatedStatus, FullyApplied).
import type { ClusterStatus } from '../../core/model/cluster.js';
import { parseStatusBranch, statusCommitTrailer, type AgentReport } from '../../core/status/status-branch.js';
import { memoize } from '../runtime/memo-map.js';
import { listRefs } from '../../adapters/git/list-refs.js';
import { statusRefPrefix } from '../../core/publish/hub-refs.js';
import { readBlobText } from '../../adapters/git/read-typed-object.js';
import { readCommitFiles, type ReadContext } from './read-git-state.js';

/** Returns cluster name → head commit of its status branch. */
export async function readStatusHeads(ctx: ReadContext, prefix: string): Promise<Map<string, string>> {
  const refPrefix = statusRefPrefix(prefix);
  const heads = new Map<string, string>();
  for (const [ref, oid] of await listRefs(ctx.store.gitdir, refPrefix))
    heads.set(ref.slice(refPrefix.length), oid);
  return heads;
}

/** Returns the reports of the status branches; a branch that does not parse is left out. */
export async function readAgentReports(
  ctx: ReadContext,
  heads: ReadonlyMap<string, string>,
  /** Cluster → where its status commit lives, when not in `ctx` (a status repository). */
  reads?: ReadonlyMap<string, ReadContext>,
): Promise<Map<string, AgentReport>> {
  const reports = new Map<string, AgentReport>();
  for (const [cluster, head] of heads) {
    // A status commit never changes: each is read once per hub process, wherever it lives.
    const from = reads?.get(cluster) ?? ctx;
    const report = await memoize(ctx.cache.reports, head, () => readReport(from, head));
    if (report) reports.set(cluster, report);
  }
  return reports;
}

async function readReport(ctx: ReadContext, head: string): Promise<AgentReport | null> {
  const { files } = await readCommitFiles(ctx, head);
  const texts = new Map<string, string>();
  for (const [path, oid] of files) {
    texts.set(path, await readBlobText(ctx.store, oid, path));
  }
  return parseStatusBranch(texts) ?? null;
}

/** Returns the cluster status each report carries, by cluster. */
export function clusterStatusOf(reports: ReadonlyMap<string, AgentReport>): Map<string, ClusterStatus> {
  const status = new Map<string, ClusterStatus>();
  for (const [cluster, report] of reports)
    if (report.clusterStatus) status.set(cluster, report.clusterStatus);
  return status;
}

// The trailer of a bindings commit naming a status branch head it aggregated (`<cluster>=<commit>`),
// named in core so the status views read it too.
export { statusCommitTrailer };

/** Returns the trailer lines for the given status heads, sorted by cluster. */
export function statusTrailerLines(heads: ReadonlyMap<string, string>): string[] {
  return [...heads]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([c, oid]) => `${statusCommitTrailer}: ${c}=${oid}`);
}

/** Returns whether the status heads recorded in trailers are exactly the current ones. */
export function sameStatusHeads(recorded: readonly string[], current: ReadonlyMap<string, string>): boolean {
  const lines = statusTrailerLines(current).map((l) => l.slice(statusCommitTrailer.length + 2));
  return recorded.length === lines.length && [...recorded].sort().every((v, i) => v === lines[i]);
}
