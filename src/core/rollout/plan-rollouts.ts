// The rollout stage of a hub pass (docs/rollout.md), after the render and the failover stage:
// for every strategy, where its rollout stands and what each cluster gets of the objects it
// selects this pass (move to the render, hold what it runs, or roll back to its last good
// objects). Pure: the hub's clock, the agents' reports, the cluster heads, the approvals found
// on the source branch and the records of the bindings branch come in as data; the records to
// keep, the decisions (Gitfleet-Rollout trailers) and the next time a soak or deadline falls due
// (Gitfleet-Wake-At) go out.
//
// One strategy, one pass:
//   1. read its record; a source commit new to it whose render changes the selected objects'
//      content (contentDigest) on a cluster the record knows starts the rollout over at step 1,
//      with that commit as its revision (no record and a pending change: it starts);
//   2. then, step by step: move the step's clusters (maxUnavailable at a time), gate them
//      (every one applied its branch's head and reports every selected object Healthy), soak,
//      pass to the next step (a Manual one waits for `Gitfleet-Approve: <strategy> step <n>`);
//      an object Degraded or the step past its progress deadline halts it (or rolls back);
//   3. write the record back and say what each cluster gets.
import { dateOf } from '../model/rfc3339.js';
import type { RolloutState, RolloutStrategy } from '../model/rollout.js';
import { strategyLabel } from '../model/rollout.js';
import { parseRolloutRecord, rolloutDir, rolloutRecordPath, rolloutRecordText } from './rollout-record.js';
import { reportObjectsCache } from './rollout-gate.js';
import type { ClusterAction, ClusterView, RolloutInput, RolloutOutput } from './rollout-input.js';
import { StrategyPass } from './strategy-pass.js';

export type { ClusterAction, ClusterView, RolloutInput, RolloutOutput };

export { rolloutDir };

/** Returns every strategy's rollout after this pass and what each cluster gets. */
export function planRollouts(input: RolloutInput): RolloutOutput {
  const out: RolloutOutput = {
    actions: new Map(),
    states: new Map(),
    files: new Map(),
    decisions: [],
    diagnostics: [],
  };
  const clusters = new Map(input.clusters.map((c) => [c.name, c]));
  const objectsOf = reportObjectsCache(input.reports);
  const wakes: number[] = [];
  const kept = new Set<string>();
  for (const strategy of [...input.strategies].sort(byLabel)) {
    const path = rolloutRecordPath(strategy);
    kept.add(path);
    const text = input.recorded.get(path);
    const parsed = text === undefined ? undefined : parseRolloutRecord(text);
    const recorded = parsed && parsed.strategy.kind === strategy.kind ? parsed : undefined;
    const planner = new StrategyPass(strategy, input, clusters, objectsOf);
    const state = planner.run(recorded);
    out.decisions.push(...planner.decisions);
    out.diagnostics.push(...planner.diagnostics);
    wakes.push(...planner.wakes);
    if (!state) continue;
    out.states.set(strategyLabel(strategy), state);
    out.files.set(path, rolloutRecordText(state));
    out.actions.set(strategyLabel(strategy), actionsOf(state));
  }
  // A record whose strategy is gone from the fleet is removed: nothing is held any more.
  for (const path of input.recorded.keys()) {
    if (!path.startsWith(rolloutDir) || kept.has(path)) continue;
    const gone = parseRolloutRecord(input.recorded.get(path)!);
    const label = gone ? strategyLabel(gone.strategy) : path.slice(rolloutDir.length).replace(/\.yaml$/, '');
    out.decisions.push({
      strategy: label,
      type: 'Removed',
      message: 'the strategy is gone: nothing is held',
    });
  }
  const now = input.now.getTime();
  const next = wakes.filter((t) => t > now).sort((a, b) => a - b)[0];
  if (next !== undefined) out.wakeAt = dateOf(next);
  return out;
}

/** What the clusters of a rollout get this pass: nothing is held once it is complete. */
function actionsOf(state: RolloutState): Map<string, ClusterAction> {
  const actions = new Map<string, ClusterAction>();
  if (state.phase === 'Complete') return actions;
  for (const c of state.clusters) {
    if (c.state === 'Held') actions.set(c.name, { type: 'hold' });
    else if (c.state === 'RolledBack' && c.lastGood)
      actions.set(c.name, { type: 'rollback', lastGood: c.lastGood });
    else actions.set(c.name, { type: 'move' });
  }
  return actions;
}

function byLabel(a: RolloutStrategy, b: RolloutStrategy): number {
  const x = strategyLabel(a);
  const y = strategyLabel(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
