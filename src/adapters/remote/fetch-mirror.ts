// refresh: fetch the remote's branches into the mirror's tracking refs, then move the mirror's
// source branch and prefixed branches to what the remote holds. The remote is the truth: a
// local branch the hub moved but failed to push is put back. Nothing is ever deleted, locally
// or remotely; a branch deleted on the remote keeps its last fetched value here.
//
// A poll usually finds nothing new, so the remote's ref advertisement (one GET) is compared
// with the tracking refs first, and isomorphic-git's fetch (a negotiation and a pack, ~0.5 s
// even when empty) runs only when a branch moved or appeared.
import fs from 'node:fs';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import { readPackedRefs, readRef } from '../git/read-ref.js';
import { updateRefs, type RefUpdateRequest } from '../git/update-ref.js';
import { discoverRefs } from './discover-refs.js';
import { localRefOf, mirrorRemote, trackingRefOf, type MirrorLayout } from './mirror-layout.js';
import { RemoteError } from './remote-error.js';
import type { RemoteAccess } from './remote-access.js';
import { toRemoteError } from './to-remote-error.js';

/** A local branch the refresh moved (from null: created). */
export interface MovedRef {
  ref: string;
  from: string | null;
  to: string;
}

/** What a refresh changed in the mirror; empty when the remote had nothing new. */
export interface RefreshResult {
  moved: MovedRef[];
}

/** Fetches the mirrored branches and aligns the local ones; returns the local branches it moved. */
export async function fetchMirror(opts: RemoteAccess & { layout: MirrorLayout }): Promise<RefreshResult> {
  const errors = { action: 'fetch', url: opts.url, secrets: opts.secrets };
  const advertised = await discoverRefs({
    url: opts.url,
    headers: opts.authHeaders,
    errors,
    service: 'git-upload-pack',
  });
  if (!advertised.refs.has(opts.layout.sourceRef)) throw missingSource(opts.url, opts.layout);
  if (await hasNewBranches(opts.gitdir, advertised.refs)) await fetchBranches(opts);
  return { moved: await alignLocalRefs(opts.gitdir, opts.layout) };
}

/** True when a branch on the remote is not where the mirror's tracking ref says. */
async function hasNewBranches(gitdir: string, refs: ReadonlyMap<string, string>): Promise<boolean> {
  const packed = await readPackedRefs(gitdir);
  for (const [ref, oid] of refs) {
    if (!ref.startsWith('refs/heads/')) continue;
    if ((await readRef(gitdir, trackingRefOf(ref), packed)) !== oid) return true;
  }
  return false;
}

async function fetchBranches(opts: RemoteAccess & { layout: MirrorLayout }): Promise<void> {
  const cache = {};
  try {
    await git.fetch({
      fs,
      http,
      cache,
      gitdir: opts.gitdir,
      url: opts.url,
      remote: mirrorRemote,
      ref: opts.layout.sourceRef,
      remoteRef: opts.layout.sourceRef,
      singleBranch: false,
      tags: false,
      prune: false,
      headers: { ...opts.authHeaders },
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFoundError') throw missingSource(opts.url, opts.layout);
    throw toRemoteError(error, { action: 'fetch', url: opts.url, secrets: opts.secrets });
  }
}

function missingSource(url: string, layout: MirrorLayout): RemoteError {
  const message = `${layout.sourceRef}: not on ${url}; push the fleet repository's source branch first`;
  return new RemoteError('MissingRef', message, layout.sourceRef);
}

/** Moves every mirrored local branch to its tracking ref, in one locked batch; returns the moves. */
async function alignLocalRefs(gitdir: string, layout: MirrorLayout): Promise<MovedRef[]> {
  const names = await git.listRefs({ fs, gitdir, filepath: `refs/remotes/${mirrorRemote}` });
  const packed = await readPackedRefs(gitdir);
  const moves: MovedRef[] = [];
  for (const name of names) {
    const local = localRefOf(layout, `refs/remotes/${mirrorRemote}/${name}`);
    if (local === null) continue;
    const to = await git.resolveRef({ fs, gitdir, ref: trackingRefOf(local) });
    const from = await readRef(gitdir, local, packed);
    if (from !== to) moves.push({ ref: local, from, to });
  }
  if (moves.length === 0) return moves;
  const updates: RefUpdateRequest[] = moves.map((m) => ({ ref: m.ref, newOid: m.to, expectedOld: m.from }));
  await updateRefs({ gitdir, updates, allowNonFastForward: true });
  return moves;
}
