// The events of the hub's and the agents' branches since a point (docs/notifications.md#where-events-come-from):
// a stream is one first-parent history (the bindings branch, one status branch per cluster), read
// from its head back to the oldest commit a receiver still waits after, at most `maxCommits`
// commits (older ones are left: the backlog's bound, counted as dropped by the worker). Each
// commit's events are derived from it and its parent (core/notify), so they are the same events
// with the same ids whoever reads them, whenever.
import { readTreePathNow } from '../../adapters/git/read-typed-object.js';
import { treeMode } from '../../adapters/git/tree-object.js';
import { parseRolloutRecord } from '../../core/rollout/rollout-record.js';
import { strategyLabel, type RolloutState } from '../../core/model/rollout.js';
import { bindingsCommitEvents, type BindingsCommitFacts } from '../../core/notify/bindings-commit-events.js';
import { statusCommitEvents } from '../../core/notify/status-commit-events.js';
import type { FleetEvent } from '../../core/notify/fleet-event.js';
import { listYamlFiles, readCommit, readText, type FleetRead } from '../views/read-fleet-objects.js';

/** The events of a stream's commits from the oldest one read to its head, in order. */
export interface StreamEvents {
  events: FleetEvent[];
  /** The commits read, oldest first. */
  commits: string[];
  /** The walk stopped at maxCommits before reaching every commit asked for. */
  truncated: boolean;
}

export interface StreamWalk {
  read: FleetRead;
  head: string;
  /** Commits a receiver waits after: the walk goes back to the oldest of them it finds. */
  stopAt: ReadonlySet<string>;
  maxCommits: number;
}

/** Returns the first-parent commits from head back to the last stopAt commit met (included), oldest first. */
export function walkFirstParents(walk: StreamWalk): { commits: string[]; truncated: boolean } {
  const chain: string[] = [];
  const waiting = new Set(walk.stopAt);
  let at: string | undefined = walk.head;
  let reached = 0;
  while (at !== undefined && waiting.size > 0) {
    if (chain.length >= walk.maxCommits) return { commits: trimmed(chain, reached), truncated: true };
    chain.push(at);
    if (waiting.delete(at)) reached = chain.length;
    at = readCommit(walk.read, at).parents[0];
  }
  return { commits: trimmed(chain, waiting.size === 0 ? reached : chain.length), truncated: false };
}

function trimmed(chain: string[], length: number): string[] {
  return chain.slice(0, length).reverse();
}

/** Returns the events of the bindings branch's commits of the walk. */
export function bindingsStreamEvents(walk: StreamWalk): StreamEvents {
  const { commits, truncated } = walkFirstParents(walk);
  const events: FleetEvent[] = [];
  let before: BindingsCommitFacts | null = parentFacts(walk.read, commits[0], bindingsFacts);
  for (const commit of commits) {
    const now = bindingsFacts(walk.read, commit);
    events.push(...bindingsCommitEvents(now, before));
    before = now;
  }
  return { events, commits, truncated };
}

/** Returns the events of one status branch's commits of the walk. */
export function statusStreamEvents(walk: StreamWalk, cluster: string, sourceCommit: string): StreamEvents {
  const { commits, truncated } = walkFirstParents(walk);
  const facts = (read: FleetRead, commit: string) => {
    const c = readCommit(read, commit);
    return { cluster, commit, message: c.message, time: c.time ?? '' };
  };
  const events: FleetEvent[] = [];
  let before = parentFacts(walk.read, commits[0], facts);
  for (const commit of commits) {
    const now = facts(walk.read, commit);
    events.push(...statusCommitEvents(now, before, sourceCommit));
    before = now;
  }
  return { events, commits, truncated };
}

function parentFacts<T>(
  read: FleetRead,
  first: string | undefined,
  facts: (read: FleetRead, c: string) => T,
): T | null {
  const parent = first === undefined ? undefined : readCommit(read, first).parents[0];
  return parent === undefined ? null : facts(read, parent);
}

function bindingsFacts(read: FleetRead, commit: string): BindingsCommitFacts {
  const c = readCommit(read, commit);
  return { commit, message: c.message, time: c.time ?? '', rollouts: rolloutRecords(read, c.tree) };
}

// The records under `.gitfleet/rollouts/` of a bindings tree (core/rollout/rollout-record.ts).
function rolloutRecords(read: FleetRead, tree: string): Map<string, RolloutState> {
  const records = new Map<string, RolloutState>();
  const dir = readTreePathNow(read.store, tree, '.gitfleet/rollouts');
  if (dir?.mode !== treeMode) return records;
  for (const file of listYamlFiles(read, dir.oid)) {
    const state = parseRolloutRecord(readText(read, file.oid));
    if (state) records.set(strategyLabel(state.strategy), state);
  }
  return records;
}
