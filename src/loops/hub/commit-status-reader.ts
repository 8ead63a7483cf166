// What the commit-status worker computes from: the fleet status as `gitfleet status` reads it
// (loops/views/read-fleet-status.ts) from the repository the hub writes (a remote's mirror, as
// the last pass left it), with the status and render repositories read where the hub's own
// passes read them, never fetched again. The per-object records of a cluster whose status the
// bindings head already aggregated come from the binding records (`objects: 'fresh'`), and the
// parsed blobs stay in a memo between reads: a read after a status commit costs what changed.
import { deployStatusInputOf } from '../../core/notify/deploy-status-input.js';
import type { DeployStatusInput } from '../../core/notify/deploy-status.js';
import { openObjectStore } from '../../adapters/git/object-store.js';
import { parseTrailers, sourceCommitTrailer } from '../../core/publish/commit-trailers.js';
import { createFleetStatusMemo, type FleetStatusMemo } from '../views/fleet-status-memo.js';
import { readCommit } from '../views/read-fleet-objects.js';
import { FleetStatusError, readFleetStatus } from '../views/read-fleet-status.js';
import type { Clock } from '../runtime/clock.js';

export interface CommitStatusReaderOptions {
  /** The git directory the hub writes (its mirror, for a remote). */
  gitdir: string;
  /** Default: the FleetConfig's at the repository's HEAD. */
  branchPrefix?: string;
  clock: Clock;
  /** The git directory of a status or render repository the hub has read, by URL; undefined: not read yet. */
  gitdirOfRepository?: (url: string) => string | undefined;
}

/** The worker's reads: its input, and the source commit rendered before the one the last read found. */
export interface CommitStatusReads {
  /** Returns the input; undefined before the hub's first bindings commit. */
  read: () => Promise<DeployStatusInput | undefined>;
  /** Returns the source commit the bindings branch rendered before `sha` (its first parents, at most 50 commits down). */
  previousOf: (sha: string) => Promise<string | undefined>;
}

/** Returns the reads of the worker over the repository the hub writes. */
export function commitStatusReader(opts: CommitStatusReaderOptions): CommitStatusReads {
  const memo = createFleetStatusMemo();
  let bindingsHead: string | undefined;
  const open = (url: string): Promise<string> => {
    const gitdir = opts.gitdirOfRepository?.(url);
    return gitdir !== undefined
      ? Promise.resolve(gitdir)
      : Promise.reject(new Error(`${url}: not read by the hub yet`));
  };
  const read = async (): Promise<DeployStatusInput | undefined> => {
    try {
      const data = await readFleetStatus({
        dir: opts.gitdir,
        ...(opts.branchPrefix !== undefined ? { branchPrefix: opts.branchPrefix } : {}),
        objects: 'fresh',
        templateLabels: false,
        memo,
        openStatusRepository: open,
      });
      bindingsHead = data.bindingsHead;
      return deployStatusInputOf(data, new Date(opts.clock.now()));
    } catch (error) {
      if (error instanceof FleetStatusError && error.code === 'NoBindingsBranch') return undefined;
      throw error;
    }
  };
  return {
    read,
    previousOf: (sha) =>
      Promise.resolve(
        bindingsHead === undefined ? undefined : sourceBefore(opts.gitdir, bindingsHead, sha, memo),
      ),
  };
}

/** Walks the bindings branch's first parents from `head` to the first commit rendered from another source commit. */
function sourceBefore(gitdir: string, head: string, sha: string, memo: FleetStatusMemo): string | undefined {
  const read = { store: openObjectStore(gitdir), memo };
  let oid: string | undefined = head;
  for (let i = 0; i < 50 && oid !== undefined; i++) {
    const commit = readCommit(read, oid);
    const source = parseTrailers(commit.message).get(sourceCommitTrailer)?.[0];
    if (source !== undefined && source !== sha) return source;
    oid = commit.parents[0];
  }
  return undefined;
}
