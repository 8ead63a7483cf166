// isomorphic-git's fetch into the mirror's incoming refs (refs/remotes/incoming/*), with the
// requests' timeouts and abort signal: every branch (the hub's mirror), or one branch (an
// agent's mirror on a server that does not speak protocol v2). It reads the v0 advertisement
// of every ref first, whichever it fetches.
import fs from 'node:fs';
import git from 'isomorphic-git';
import { gitHttpClient } from './git-http-client.js';
import { incomingRemote } from './mirror-layout.js';
import type { RemoteAccess } from './remote-access.js';

/** Fetches `ref` (alone, or with every other branch) into the incoming refs; throws isomorphic-git's errors. */
export async function isoFetch(
  access: RemoteAccess,
  opts: { ref: string; singleBranch: boolean },
): Promise<void> {
  await git.fetch({
    fs,
    http: gitHttpClient({ timeouts: access.timeouts, signal: access.signal, gate: access.gate }),
    cache: {},
    gitdir: access.gitdir,
    url: access.url,
    remote: incomingRemote,
    ref: opts.ref,
    remoteRef: opts.ref,
    singleBranch: opts.singleBranch,
    tags: false,
    prune: false,
    headers: { ...access.authHeaders },
  });
}
