// The hub's recorded state as a preview reads it: the same reads a hub pass makes
// (read-hub-state.ts, read-status-branches.ts), from the repository `gitfleet diff` is given,
// plus when each part was recorded, so the preview can say which state it used.
import { openObjectStore } from '../../adapters/git/object-store.js';
import { readCommit } from '../../adapters/git/read-typed-object.js';
import { createHubPassCache } from '../hub/hub-pass-cache.js';
import { readHubState, type HubState } from '../hub/read-hub-state.js';
import type { ReadContext } from '../hub/read-git-state.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { localGitdir } from '../../adapters/remote/hub-repo.js';
import { readRenderedHeads } from '../views/read-rendered-heads.js';

/** The recorded state of the hub's branches under one prefix, and when it was recorded. */
export interface RecordedState {
  read: ReadContext;
  state: HubState;
  /** The bindings branch's head and its committer time (ISO 8601), when the branch exists. */
  bindings?: { commit: string; recordedAt: string; source: string | null };
  /** Each status branch's head and committer time, by cluster. */
  status: { cluster: string; commit: string; recordedAt: string }[];
  /** Cluster → why its render repository cannot be read: previewed as if it had no branch. */
  renderUnreadable?: ReadonlyMap<string, string>;
}

/**
 * Returns the hub state recorded under the prefix, or undefined when there is no bindings or
 * status branch. A cluster branch the bindings branch records in a render repository is read
 * there (a local path; a URL is not read: that cluster is previewed as if it had no branch, and
 * the note says so).
 */
export async function readRecordedState(gitdir: string, prefix: string): Promise<RecordedState | undefined> {
  const cache = createHubPassCache();
  const read: ReadContext = { store: openObjectStore(gitdir, cache.packs), cache };
  const recorded = await readHubState(read, prefix);
  const rendered = await readRenderedHeads({
    branchPrefix: prefix,
    fleetHeads: recorded.clusterHeads,
    locations: recorded.bindings.locations,
    open: (url) =>
      isRepoUrl(url)
        ? Promise.reject(new Error('a URL: the preview reads local repositories only'))
        : Promise.resolve(localGitdir(url)),
  });
  read.store = { ...read.store, also: rendered.gitdirs };
  const state = { ...recorded, clusterHeads: rendered.heads };
  if (state.bindings.head === null && state.statusHeads.size === 0) return undefined;
  const status = await Promise.all(
    [...state.statusHeads]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(async ([cluster, commit]) => ({
        cluster,
        commit,
        recordedAt: await committedAt(read, commit),
      })),
  );
  const head = state.bindings.head;
  return {
    read,
    state,
    ...(head !== null
      ? {
          bindings: {
            commit: head,
            recordedAt: await committedAt(read, head),
            source: state.bindings.lastSource,
          },
        }
      : {}),
    status,
    ...(rendered.unreadable.size > 0 ? { renderUnreadable: rendered.unreadable } : {}),
  };
}

/** Returns the committer time of a commit as ISO 8601 (UTC). */
async function committedAt(read: ReadContext, commit: string): Promise<string> {
  const seconds = (await readCommit(read.store, commit)).committer?.timestamp;
  return seconds === undefined ? 'an unknown time' : new Date(seconds * 1000).toISOString();
}

/** Returns the sentence saying which state a preview used. */
export function describeRecordedState(recorded: RecordedState | undefined, prefix: string): string {
  if (!recorded) return 'no hub state: rendered as a first pass';
  const parts: string[] = [];
  if (recorded.bindings) {
    const { commit, recordedAt, source } = recorded.bindings;
    parts.push(
      `bindings ${prefix}bindings at ${commit.slice(0, 12)} (recorded ${recordedAt}` +
        `${source ? `, last rendered source ${source.slice(0, 12)}` : ''})`,
    );
  } else parts.push('no bindings branch yet (a first pass)');
  if (recorded.status.length > 0) {
    const times = recorded.status.map((s) => s.recordedAt).sort();
    const range = times[0] === times.at(-1) ? times[0] : `${times[0]} to ${times.at(-1)}`;
    parts.push(
      `status of ${recorded.status.length} cluster${recorded.status.length === 1 ? '' : 's'} (recorded ${range})`,
    );
  } else parts.push('no status branches');
  const unreadable = new Map<string, string[]>();
  for (const [cluster, why] of recorded.renderUnreadable ?? [])
    unreadable.set(why, [...(unreadable.get(why) ?? []), cluster]);
  for (const [why, clusters] of unreadable)
    parts.push(`${why} (${clusters.join(', ')} previewed as if they had no branch)`);
  return `hub state: ${parts.join('; ')}`;
}
