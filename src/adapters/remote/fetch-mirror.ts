// refresh: fetch the remote's branches into the mirror's tracking refs, then move the mirror's
// source branch and prefixed branches to what the remote holds. The remote is the truth: a
// local branch the hub moved but failed to push is put back. Nothing is deleted remotely.
//
// A poll usually finds nothing new, so the remote's ref advertisement (one GET) is compared
// with the tracking refs first, and a fetch runs only when a branch moved or appeared: one
// fetch of the moved tips (fetch-pack-v2.ts), in protocol v2 or, from a server that speaks only
// v0, in v0's words. The server's HEAD plays no part in either: a HEAD naming a branch nobody
// pushed (what `git init --bare` leaves) is common, and isomorphic-git's fetch, used only for
// a v0 server without side-band-64k, trips on it. Branches the
// caller calls quiet (the agents' heartbeats, whose value is all anyone reads, from the
// advertisement) do not count: they move every few seconds, and would otherwise make every
// poll a fetch.
//
// That is the hub's mirror. An agent's mirror (layout `only`) asks for its few branches alone
// (fetch-wanted.ts: a protocol v2 ls-refs, and a v2 fetch of their new tips): at 1,000
// clusters the v0 advertisement is 3,000 refs and 251 KB, and isomorphic-git's fetch of every
// branch writes 3,000 tracking refs, for the three or four branches an agent reads.
//
// Either way the new tips land as incoming refs first. isomorphic-git writes the fetched refs
// before it has stored the pack, so a pack cut off or damaged on the way would leave refs at
// objects the mirror lacks, and every later fetch would offer those as "haves" and never
// receive them. So the fetch writes its refs under refs/remotes/incoming/
// (verify-fetched-pack.ts checks the pack's checksum and that every object the new tips need
// is present) and only then are the tracking refs moved, under locks. A failed check deletes the new pack and the incoming refs: the mirror is as before.
import { listRefNames } from '../git/list-refs.js';
import { readPackedRefs, readRef } from '../git/read-ref.js';
import { updateRefs, type RefUpdateRequest } from '../git/update-ref.js';
import { allowanceSourceRef, type AllowanceHead } from './allowance-source-ref.js';
import { damagedPackError, libraryReason } from './damaged-pack-error.js';
import { discoverRefs } from './discover-refs.js';
import { advertiseWanted, downloadWanted, movedBranches } from './fetch-wanted.js';
import { fetchKnownHead, type KnownHead } from './fetch-known-head.js';
import { lsRemoteRefs } from './ls-remote-refs.js';
import { isoFetch } from './iso-fetch.js';
import { v0FetchPossible } from './fetch-pack-v2.js';
import { localRefOf, mirrorRemote, trackingRefOf, wantedRefs, type MirrorLayout } from './mirror-layout.js';
import { RemoteError } from './remote-error.js';
import type { RemoteAccess } from './remote-access.js';
import { toRemoteError } from './to-remote-error.js';
import {
  clearIncoming,
  discardNewPacks,
  listPacks,
  readIncomingRefs,
  verifyFetchedPack,
} from './verify-fetched-pack.js';

/** A local branch the refresh moved (from null: created). */
export interface MovedRef {
  ref: string;
  from: string | null;
  to: string;
}

/** What a refresh changed in the mirror; empty when the remote had nothing new. */
export interface RefreshResult {
  moved: MovedRef[];
  /** The remote's branches (full names) and their commits, as advertised. */
  remoteBranches: ReadonlyMap<string, string>;
}

/** Fetches the mirrored branches and aligns the local ones; returns the local branches it moved. */
export async function fetchMirror(opts: FetchMirrorOptions): Promise<RefreshResult> {
  const wanted = wantedRefs(opts.layout);
  const remoteBranches = wanted === null ? await fetchEveryBranch(opts) : await fetchOnly(opts, wanted);
  return { moved: await alignLocalRefs(opts.gitdir, opts.layout), remoteBranches };
}

type FetchMirrorOptions = RemoteAccess & {
  layout: MirrorLayout;
  quiet?: ((ref: string) => boolean) | undefined;
  /** Where the cluster branch's head is when this mirror does not hold it (allowance-source-ref.ts). */
  allowanceHead?: AllowanceHead | undefined;
  /** A head the doorbell named, for a mirror holding its source branch alone (fetch-known-head.ts). */
  knownHead?: KnownHead | undefined;
  /** Told whether the server answered an agent's mirror's ls-refs in protocol v2. */
  spokeV2?: ((v2: boolean) => void) | undefined;
};

/** The hub's mirror: the v0 advertisement, and isomorphic-git's fetch of every branch when one moved. */
async function fetchEveryBranch(opts: FetchMirrorOptions): Promise<Map<string, string>> {
  const advertised = await discoverRefs({
    url: opts.url,
    headers: opts.authHeaders,
    timeouts: opts.timeouts,
    signal: opts.signal,
    gate: opts.gate,
    errors: { action: 'fetch', url: opts.url, secrets: opts.secrets },
    service: 'git-upload-pack',
  });
  const branches = new Map([...advertised.refs].filter(([ref]) => ref.startsWith('refs/heads/')));
  if (!branches.has(opts.layout.sourceRef) && opts.layout.sourceOptional !== true)
    throw missingSource(opts.url, opts.layout, branches.keys());
  if (await hasNewBranches(opts.gitdir, branches, opts.quiet)) {
    const moved = await movedBranches(opts.gitdir, branches);
    await fetchVerified(opts, () =>
      downloadEveryBranch(opts, moved, [...branches.keys()], advertised.capabilities),
    );
  }
  return branches;
}

/**
 * The objects of every moved branch: one fetch of their tips, in protocol v2 when the server
 * speaks it, else in v0 (fetch-wanted.ts); neither answer needs the server's HEAD.
 */
async function downloadEveryBranch(
  opts: FetchMirrorOptions,
  moved: ReadonlyMap<string, string>,
  branches: readonly string[],
  capabilities: ReadonlySet<string>,
): Promise<void> {
  const probe = await lsRemoteRefs({
    url: opts.url,
    headers: opts.authHeaders,
    timeouts: opts.timeouts,
    signal: opts.signal,
    gate: opts.gate,
    errors: { action: 'fetch', url: opts.url, secrets: opts.secrets },
    refs: [opts.layout.sourceRef],
  });
  const v2 = probe.type === 'refs';
  if (v2 || v0FetchPossible(capabilities))
    return downloadWanted(opts, { moved, v2, wanted: branches, capabilities });
  return isoFetch(opts, { ref: opts.layout.sourceRef, singleBranch: false });
}

/**
 * An agent's mirror: its wanted branches (fetch-wanted.ts), or the head the doorbell named when
 * it holds one branch alone and that head is taken (fetch-known-head.ts), then the source
 * branch its cluster branch's head names when that head allows deletions (allowance-source-ref.ts).
 */
async function fetchOnly(opts: FetchMirrorOptions, wanted: readonly string[]): Promise<Map<string, string>> {
  const known = wanted.length === 1 ? opts.knownHead : undefined;
  const verified = (download: () => Promise<void>) => fetchVerified(opts, download);
  const refs =
    (known && (await fetchKnownHead(opts, { known, ref: wanted[0]!, verified }))) ??
    (await fetchWantedOnce(opts, wanted));
  if (!refs.has(opts.layout.sourceRef) && opts.layout.sourceOptional !== true)
    throw missingSource(opts.url, opts.layout, refs.keys(), wanted);
  const source = await allowanceSourceRef(opts.gitdir, opts.layout, opts.allowanceHead);
  if (source === null || wanted.includes(source)) return refs;
  for (const [ref, oid] of await fetchWantedOnce(opts, [source])) refs.set(ref, oid);
  return refs;
}

/** Asks where the branches are and fetches those that moved (unless only quiet ones did); returns where they are. */
async function fetchWantedOnce(
  opts: FetchMirrorOptions,
  wanted: readonly string[],
): Promise<Map<string, string>> {
  const advertised = await advertiseWanted(opts, wanted);
  opts.spokeV2?.(advertised.v2);
  const moved = await movedBranches(opts.gitdir, advertised.refs);
  if ([...moved.keys()].some((ref) => opts.quiet?.(ref) !== true)) {
    await fetchVerified(opts, () =>
      downloadWanted(opts, { moved, v2: advertised.v2, wanted, capabilities: advertised.capabilities }),
    );
  }
  return advertised.refs;
}

/** True when a branch on the remote is not where the mirror's tracking ref says. */
async function hasNewBranches(
  gitdir: string,
  refs: ReadonlyMap<string, string>,
  quiet: ((ref: string) => boolean) | undefined,
): Promise<boolean> {
  const packed = await readPackedRefs(gitdir);
  for (const [ref, oid] of refs) {
    if (!ref.startsWith('refs/heads/') || quiet?.(ref) === true) continue;
    if ((await readRef(gitdir, trackingRefOf(ref), packed)) !== oid) return true;
  }
  return false;
}

/** Runs the download (objects and incoming refs), verifies what it brought, then moves the tracking refs. */
async function fetchVerified(opts: FetchMirrorOptions, download: () => Promise<void>): Promise<void> {
  const { gitdir } = opts;
  await clearIncoming(gitdir); // what a fetch killed before its check left behind
  const before = await listPacks(gitdir);
  try {
    await download();
    await verifyFetchedPack({ gitdir, before, trackingRef: trackingRefOf });
  } catch (error) {
    await discardNewPacks(gitdir, before);
    await clearIncoming(gitdir);
    if ((error as { code?: string }).code === 'NotFoundError') throw notFound(opts.url, opts.layout, error);
    if (error instanceof RemoteError) throw error;
    if (opts.signal?.aborted !== true && isPackDamage(error))
      throw damagedPackError({ url: opts.url, gitdir, reason: libraryReason(error) });
    throw toRemoteError(error, { action: 'fetch', url: opts.url, secrets: opts.secrets });
  }
  await moveTrackingRefs(gitdir, await readIncomingRefs(gitdir));
  await clearIncoming(gitdir);
}

/** An error of the pack's content rather than of the connection. */
function isPackDamage(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    code === 'DamagedPack' ||
    code === 'InternalError' ||
    /pack|pkt-line|inflate|zlib|incorrect header|unexpected end|but received|cut off/i.test(
      (error as Error).message ?? '',
    )
  );
}

/** Moves each tracking ref to its verified incoming value, in one locked batch. */
async function moveTrackingRefs(gitdir: string, incoming: ReadonlyMap<string, string>): Promise<void> {
  const packed = await readPackedRefs(gitdir);
  const updates: RefUpdateRequest[] = [];
  for (const [branch, oid] of incoming) {
    const ref = trackingRefOf(branch);
    const current = await readRef(gitdir, ref, packed);
    if (current !== oid) updates.push({ ref, newOid: oid, expectedOld: current });
  }
  if (updates.length > 0) await updateRefs({ gitdir, updates, allowNonFastForward: true });
}

/**
 * The source branch is not among the branches the server listed, which the message names so a
 * user can compare with git ls-remote (an agent asks for a few branches only: those it asked for).
 */
function missingSource(
  url: string,
  layout: MirrorLayout,
  listed?: Iterable<string>,
  asked?: readonly string[],
): RemoteError {
  const names = [...(listed ?? [])].filter((ref) => ref.startsWith('refs/heads/')).sort();
  const shown = names.length > 12 ? [...names.slice(0, 12), `and ${names.length - 12} more`] : names;
  const lists = names.length === 0 ? 'no branch' : shown.join(', ');
  const seen =
    asked === undefined ? `the server lists ${lists}` : `of ${asked.join(', ')}, the server lists ${lists}`;
  const said = listed === undefined ? '' : ` (${seen})`;
  const message = `${layout.sourceRef}: not on ${url}${said}; push the fleet repository's source branch first`;
  return new RemoteError('MissingRef', message, layout.sourceRef);
}

// isomorphic-git's fetch (a server that speaks only protocol v0) names what it could not find:
// HEAD when the server's HEAD names a branch that does not exist, though the source branch is there.
function notFound(url: string, layout: MirrorLayout, error: unknown): RemoteError {
  const what = (error as { data?: { what?: unknown } }).data?.what;
  if (what !== 'HEAD') return missingSource(url, layout);
  return new RemoteError(
    'MissingRef',
    `${url}: fetch failed: the server's HEAD names a branch that does not exist, and this server speaks only git protocol v0, whose fetch here needs HEAD; point HEAD at an existing branch on the server (git symbolic-ref HEAD ${layout.sourceRef})`,
    'HEAD',
  );
}

/** Moves every mirrored local branch to its tracking ref, in one locked batch; returns the moves. */
async function alignLocalRefs(gitdir: string, layout: MirrorLayout): Promise<MovedRef[]> {
  // An agent's mirror names its branches; a mirror made before it fetched only those may hold
  // thousands of other tracking refs, which it need not list every time.
  const locals = wantedRefs(layout) ?? (await mirroredTrackedBranches(gitdir, layout));
  const packed = await readPackedRefs(gitdir);
  const moves: MovedRef[] = [];
  for (const local of locals) {
    const to = await readRef(gitdir, trackingRefOf(local), packed);
    if (to === null) continue;
    const from = await readRef(gitdir, local, packed);
    if (from !== to) moves.push({ ref: local, from, to });
  }
  if (moves.length === 0) return moves;
  const updates: RefUpdateRequest[] = moves.map((m) => ({ ref: m.ref, newOid: m.to, expectedOld: m.from }));
  await updateRefs({ gitdir, updates, allowNonFastForward: true });
  return moves;
}

/** Returns the mirrored branches that have a tracking ref. */
async function mirroredTrackedBranches(gitdir: string, layout: MirrorLayout): Promise<string[]> {
  const names = await listRefNames(gitdir, `refs/remotes/${mirrorRemote}/`);
  return names.flatMap((name) => localRefOf(layout, name) ?? []);
}
