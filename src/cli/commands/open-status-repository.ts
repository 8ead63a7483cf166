// How `gitfleet status` and `gitfleet ui` read a status repository the fleet assigns
// (loops/views/read-status-repositories.ts): a local path in place; a URL through a mirror of
// its own (keyed apart from the hub's and the agents'), fetched again at every read. The token is
// the command's (--token-file, else $GITFLEET_GIT_TOKEN).
import { readToken } from '../../adapters/remote/read-token.js';
import { remoteHubRepo, type RemoteHubRepo } from '../../adapters/remote/remote-hub-repo.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { localGitdir } from '../../adapters/remote/hub-repo.js';
import { defaultMirrorCacheDir } from '../mirror-cache-dir.js';
import { remoteTimeoutsFromEnv } from './remote-timeouts-from-env.js';

/** Returns a function giving the up-to-date git directory of a status repository by URL or path. */
export function statusRepositoryOpener(opts: {
  tokenFile?: string;
  branchPrefix?: string;
  /** Names the mirror (`status`, `ui`), so two commands never share one. */
  mirrorKey: string;
}): (url: string) => Promise<string> {
  const mirrors = new Map<string, RemoteHubRepo>();
  return async (url) => {
    if (!isRepoUrl(url)) return localGitdir(url);
    let mirror = mirrors.get(url);
    if (!mirror) {
      const token = await readToken({
        env: process.env,
        ...(opts.tokenFile ? { file: opts.tokenFile } : {}),
      });
      mirror = remoteHubRepo({
        url,
        cacheDir: defaultMirrorCacheDir(),
        mirrorKey: `${opts.mirrorKey} status-repository`,
        ...(token ? { token } : {}),
        sourceRef: 'main',
        sourceOptional: true,
        branchPrefix: opts.branchPrefix ?? defaultBranchPrefix,
        timeouts: remoteTimeoutsFromEnv(process.env),
      });
      mirrors.set(url, mirror);
    }
    await mirror.refresh();
    return mirror.gitdir;
  };
}
