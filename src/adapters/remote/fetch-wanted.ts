// An agent's mirror fetches only the branches it reads (mirror-layout.ts `only`): where they
// are, from one protocol v2 ls-refs naming them (ls-remote-refs.ts), and their new objects,
// from one v2 fetch wanting their new tips (fetch-pack-v2.ts); the new tips are written as
// incoming refs for fetch-mirror.ts to verify and move. A server that does not speak v2 is
// asked the v0 way: the full advertisement, filtered, and one v0 fetch of the new tips (or,
// from a server without side-band-64k, isomorphic-git's fetch of each moved branch alone).
import { readPackedRefs, readRef } from '../git/read-ref.js';
import { updateRefs } from '../git/update-ref.js';
import { discoverRefs } from './discover-refs.js';
import { fetchPackV2, v0FetchPossible } from './fetch-pack-v2.js';
import { isoFetch } from './iso-fetch.js';
import { lsRemoteRefs } from './ls-remote-refs.js';
import { incomingRemote, trackingRefOf } from './mirror-layout.js';
import type { RemoteAccess } from './remote-access.js';

/** Where the wanted branches are on the remote, and whether it answered in protocol v2. */
export interface WantedAdvertisement {
  refs: Map<string, string>;
  v2: boolean;
  /** The v0 advertisement's capabilities (absent in v2). */
  capabilities?: ReadonlySet<string>;
}

/** Returns where each wanted branch is on the remote (absent ones left out). */
export async function advertiseWanted(
  access: RemoteAccess,
  wanted: readonly string[],
): Promise<WantedAdvertisement> {
  const target = {
    url: access.url,
    headers: access.authHeaders,
    timeouts: access.timeouts,
    signal: access.signal,
    gate: access.gate,
    errors: { action: 'fetch', url: access.url, secrets: access.secrets },
  };
  const probe = await lsRemoteRefs({ ...target, refs: wanted });
  if (probe.type === 'refs') return { refs: probe.refs, v2: true };
  const all = await discoverRefs({ ...target, service: 'git-upload-pack' });
  return {
    refs: new Map(wanted.flatMap((ref) => (all.refs.has(ref) ? [[ref, all.refs.get(ref)!]] : []))),
    v2: false,
    capabilities: all.capabilities,
  };
}

/** Returns the advertised branches whose tracking ref is not where the remote is. */
export async function movedBranches(
  gitdir: string,
  refs: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  const packed = await readPackedRefs(gitdir);
  const moved = new Map<string, string>();
  for (const [ref, oid] of refs)
    if ((await readRef(gitdir, trackingRefOf(ref), packed)) !== oid) moved.set(ref, oid);
  return moved;
}

/** Fetches the moved branches' objects and writes their tips as incoming refs (not yet verified). */
export async function downloadWanted(
  access: RemoteAccess,
  opts: {
    moved: ReadonlyMap<string, string>;
    v2: boolean;
    wanted: readonly string[];
    capabilities?: ReadonlySet<string> | undefined;
  },
): Promise<void> {
  const v0 = opts.v2 ? undefined : { capabilities: opts.capabilities ?? new Set<string>() };
  if (v0 !== undefined && !v0FetchPossible(v0.capabilities)) {
    for (const ref of opts.moved.keys()) await isoFetch(access, { ref, singleBranch: true });
    return;
  }
  const haves = await trackedCommits(access.gitdir, opts.wanted);
  await fetchPackV2({ ...access, wants: [...new Set(opts.moved.values())], haves, ...(v0 ? { v0 } : {}) });
  await updateRefs({
    gitdir: access.gitdir,
    updates: [...opts.moved].map(([ref, oid]) => ({
      ref: `refs/remotes/${incomingRemote}/${ref.slice('refs/heads/'.length)}`,
      newOid: oid,
      expectedOld: null,
    })),
    allowNonFastForward: true,
  });
}

/** The commits the wanted branches' tracking refs hold: what the mirror has of them, offered as haves. */
async function trackedCommits(gitdir: string, wanted: readonly string[]): Promise<string[]> {
  const packed = await readPackedRefs(gitdir);
  const oids = await Promise.all(wanted.map((ref) => readRef(gitdir, trackingRefOf(ref), packed)));
  return [...new Set(oids.filter((oid): oid is string => oid !== null))];
}
