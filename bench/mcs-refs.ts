// What the multi-cluster services benchmarks read of the fleet repository: the heads of the
// hub's and agents' branches, the commits made between two readings, the repository's size
// (loose and packed, as `git count-objects -v` counts them, and the bytes of .git on disk), and
// a timeline of ref moves seen by the project's own ref watcher (src/adapters/watch).
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { watchLocalRefs, type RefWatcher } from '../src/adapters/watch/watch-local-refs.js';
import { git } from './mcs-fleet-repo.js';

/** Returns every branch of the repository: full ref name → commit. */
export async function branchHeads(repo: string): Promise<Map<string, string>> {
  const out = await git(repo, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/']);
  return new Map(
    out
      .trim()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split(' ') as [string, string]),
  );
}

/** Returns, per branch, the commits reachable from its head `after` and not from its head `before`. */
export async function commitsBetween(
  repo: string,
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const [ref, head] of after) {
    const old = before.get(ref);
    if (old === head) {
      counts.set(ref, 0);
      continue;
    }
    const range = old === undefined ? [head] : [head, `^${old}`];
    counts.set(ref, Number((await git(repo, ['rev-list', '--count', ...range])).trim()));
  }
  return counts;
}

/** The size of the repository, loose and packed. */
export interface RepoSize {
  looseObjects: number;
  looseKiB: number;
  packedObjects: number;
  packs: number;
  packKiB: number;
  /** The bytes of every file under .git (as `du -sb` counts files): refs, index and logs included. */
  gitDirBytes: number;
}

/** Returns the repository's size now. */
export async function repoSize(repo: string): Promise<RepoSize> {
  const counts = new Map(
    (await git(repo, ['count-objects', '-v']))
      .trim()
      .split('\n')
      .map((l) => l.split(': ') as [string, string]),
  );
  const n = (key: string) => Number(counts.get(key) ?? 0);
  return {
    looseObjects: n('count'),
    looseKiB: n('size'),
    packedObjects: n('in-pack'),
    packs: n('packs'),
    packKiB: n('size-pack'),
    gitDirBytes: fileBytesUnder(join(repo, '.git')),
  };
}

/**
 * Returns the sizes of the files under `dir` added up. The hub and the agents keep writing
 * while it counts: a file gone between the listing and its stat (a ref's `.lock`) is left out.
 */
function fileBytesUnder(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    try {
      bytes += lstatSync(join(entry.parentPath, entry.name)).size;
    } catch {
      // written and gone meanwhile
    }
  }
  return bytes;
}

/** One ref move: when the watcher saw it (ms on the performance clock) and the new head. */
export interface RefMove {
  ref: string;
  atMs: number;
  head: string;
}

/** The ref moves under refs/heads/ since it started, as the project's ref watcher reports them. */
export interface RefTimeline {
  moves: RefMove[];
  /** The moves of `ref` after `sinceMs`. */
  movesOf(ref: string, sinceMs: number): RefMove[];
  close(): Promise<void>;
}

/** Starts recording the moves of every branch of the repository (10 ms debounce). */
export async function recordRefMoves(repo: string): Promise<RefTimeline> {
  const gitdir = join(repo, '.git');
  const moves: RefMove[] = [];
  const last = new Map<string, string>();
  const watcher: RefWatcher = await watchLocalRefs({
    gitdir,
    refs: ['refs/heads/'],
    debounceMs: 10,
    onChange: (refs) => {
      const atMs = performance.now();
      for (const ref of refs) {
        const head = readLooseRef(gitdir, ref);
        if (head === undefined || last.get(ref) === head) continue;
        last.set(ref, head);
        moves.push({ ref, atMs, head });
      }
    },
  });
  return {
    moves,
    movesOf: (ref, sinceMs) => moves.filter((m) => m.ref === ref && m.atMs > sinceMs),
    close: () => watcher.close(),
  };
}

function readLooseRef(gitdir: string, ref: string): string | undefined {
  try {
    return readFileSync(join(gitdir, ref), 'utf8').trim();
  } catch {
    return undefined; // packed, or deleted: not a move this timeline needs
  }
}
