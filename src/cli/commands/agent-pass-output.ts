// What `gitfleet agent` says of a pass: the one-line summary, the problems as log records
// (--log-format json), and the result printed as text or JSON. The loop prints a pass that
// changed nothing, or failed as the one before did, as its summary at debug level only.
import type { AgentPassResult } from '../../loops/agent/run-agent-pass.js';
import type { Logger, LogLevel } from '../../loops/runtime/logger.js';
import type { Io } from '../io.js';

/** Returns the one-line summary of a pass (`agent member1: applied 1a2b3c4: …`). */
export function summarize(result: AgentPassResult): string {
  const short = result.commit?.slice(0, 7) ?? 'none';
  if (result.type === 'noBranch') {
    // The usual causes, for a newcomer: a --cluster that no Cluster registration names, or no hub.
    return (
      `agent ${result.cluster}: no cluster branch yet; nothing applied (the hub writes one for each ` +
      `Cluster registered in the fleet repository: is one named ${result.cluster}, and is the hub running?)`
    );
  }
  if (result.type === 'tombstoned')
    return `agent ${result.cluster}: branch tombstoned at ${short}; stopped applying, deleted nothing`;
  if (result.type === 'unverified')
    return `agent ${result.cluster}: refused ${short}: ${result.unverified ?? 'not signed by a trusted key'}; applied nothing, deleted nothing`;
  if (result.type === 'clusterUnreachable') {
    return `agent ${result.cluster}: the cluster does not answer; reported NotReady, applied and deleted nothing`;
  }
  const counts = new Map<string, number>();
  for (const o of result.objects) counts.set(o.action, (counts.get(o.action) ?? 0) + 1);
  const parts = [...counts].map(([action, n]) => `${n} ${action}`);
  const pruned = result.prune ? result.prune.deleted.length + result.prune.orphaned.length : 0;
  const state = result.fullyApplied
    ? 'applied'
    : result.gitReachable
      ? 'partly applied'
      : 'Git unreachable; kept';
  return `agent ${result.cluster}: ${state} ${short}: ${result.objects.length} objects (${parts.join(', ') || 'none'}), pruned ${pruned}`;
}

/** With --log-format json: a pass that did not apply everything as error records, one per object, with its fields. */
export function logProblems(result: AgentPassResult, log: Logger): void {
  const commit = result.commit ?? undefined;
  log.error(`${summarize(result).replace(/^agent [^:]+: /, '')} in ${result.totalMs} ms`, { commit });
  for (const o of result.objects)
    if (!o.applied) log.error(`${o.path}: ${o.message ?? o.action}`, { commit, object: o.path });
  for (const u of result.unparsed) log.error(`${u.path}: ${u.message}`, { commit, object: u.path });
  for (const f of result.prune?.failed ?? []) log.error(f.message, { commit });
  if (result.prune?.plan.guardRefusal) log.error(result.prune.plan.guardRefusal, { commit });
  if (result.inventoryProblem) log.error(result.inventoryProblem, { commit });
  if (result.returnNotice) log.warn(result.returnNotice, { commit });
}

/** Prints a pass result as text (stderr when not everything applied) or JSON. */
export function print(result: AgentPassResult, output: 'text' | 'json', io: Io): void {
  if (output === 'json') {
    const { objects, ...rest } = result;
    io.out(JSON.stringify({ ...rest, objects: objects.map(({ live: _live, ...o }) => o) }, null, 2));
    return;
  }
  const { text, failed } = formatPass(result);
  (failed ? io.err : io.out)(text);
}

/** Returns a pass's text, and whether it failed (not everything applied, or its status not written). */
function formatPass(result: AgentPassResult): { text: string; failed: boolean } {
  const lines = [
    `${summarize(result)} in ${result.totalMs} ms; ${result.requests.mutating} writes; status ${result.status.type}`,
  ];
  for (const o of result.objects) if (!o.applied) lines.push(`  ${o.path}: ${o.message ?? o.action}`);
  for (const u of result.unparsed) lines.push(`  ${u.path}: ${u.message}`);
  for (const f of result.prune?.failed ?? []) lines.push(`  ${f.message}`);
  if (result.prune?.plan.guardRefusal) lines.push(`  ${result.prune.plan.guardRefusal}`);
  // What prune is waiting on or could not list (the guard's refusal is printed once above;
  // `terminating` holds both the objects found terminating and those the pass's DELETE left so).
  for (const h of result.prune?.plan.held ?? [])
    if (h.reason === 'NotListed' || h.reason === 'NamespaceNotEmpty') lines.push(`  ${h.message}`);
  for (const t of result.prune?.terminating ?? []) lines.push(`  ${t.message}`);
  if (result.inventoryProblem) lines.push(`  ${result.inventoryProblem}`);
  if (result.returnNotice) lines.push(`  ${result.returnNotice}`);
  if (result.status.problem) lines.push(`  ${result.status.problem}`);
  return { text: lines.join('\n'), failed: !result.fullyApplied || result.status.problem !== undefined };
}

/** How the agent loop prints its passes, and the summary it printed last. */
export interface AgentReporter {
  output: 'text' | 'json';
  /** For JSON: stdout. */
  io: Io;
  /** Whether the logs are JSON: a pass that did not apply everything is then error records. */
  jsonLogs: boolean;
  log: Logger;
  /** Prints one pass's text (observability.ts: stamped, levelled). */
  report(text: string, opts: { level: LogLevel; failed?: boolean }): void;
  last?: string;
}

/** Prints a pass of the loop: in full when it did something or failed anew, else its summary at debug. */
export function reportLoopPass(result: AgentPassResult, r: AgentReporter): void {
  const summary = summarize(result);
  if ((isQuiet(result) || summary === r.last) && result.status.type !== 'written') {
    if (r.output === 'text') r.report(`${summary} in ${result.totalMs} ms`, { level: 'debug' });
    return;
  }
  r.last = summary;
  if (r.jsonLogs && r.output === 'text' && !result.fullyApplied) return logProblems(result, r.log);
  if (r.output === 'json') return print(result, 'json', r.io);
  const { text, failed } = formatPass(result);
  r.report(text, { level: failed ? 'error' : 'info', failed });
}

/** Returns whether a pass found everything in place and did nothing. */
function isQuiet(result: AgentPassResult): boolean {
  const pruned = (result.prune?.deleted.length ?? 0) + (result.prune?.orphaned.length ?? 0);
  return result.fullyApplied && pruned === 0 && result.objects.every((o) => o.action === 'unchanged');
}
