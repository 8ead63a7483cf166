// The rollouts the bindings branch records (core/rollout/rollout-record.ts), as `gitfleet status`
// shows them: every file under `.gitfleet/rollouts/`, read or named as unreadable. A record
// that does not parse is not left out: the hub treats it as no record and would start that
// rollout again from step 1, which a user looking at the status needs to know.
import type { RolloutState } from '../model/rollout.js';
import { parseRolloutRecord, rolloutDir } from './rollout-record.js';

/** One record file of the bindings branch: the rollout it holds, or why it could not be read. */
export type RolloutView = { path: string; rollout: RolloutState } | { path: string; unreadable: string };

const unreadable =
  'not a RolloutState record this version of gitfleet reads: the hub treats it as no record and starts that rollout again from step 1';

/** Returns a view of every rollout record among a bindings branch's files (path → text), by path. */
export function rolloutViewsOf(files: ReadonlyMap<string, string>): RolloutView[] {
  const views: RolloutView[] = [];
  const paths = [...files.keys()].filter((p) => p.startsWith(rolloutDir)).sort();
  for (const path of paths) {
    const rollout = parseRolloutRecord(files.get(path)!);
    views.push(rollout ? { path, rollout } : { path, unreadable });
  }
  return views;
}
