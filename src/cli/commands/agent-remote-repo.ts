// An agent's repository over HTTP(S): the same fetched mirror the hub uses, with the cluster
// branch as the branch to follow. The mirror's publish pushes only refs under the prefix, and
// the agent moves only its status branch, so an agent needs read access to its cluster branch
// and write access to its status branch only. The token comes from $GITFLEET_GIT_TOKEN or a file.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readToken } from '../../adapters/remote/read-token.js';
import { remoteHubRepo } from '../../adapters/remote/remote-hub-repo.js';
import type { AgentRepo } from '../../loops/agent/agent-repo.js';

/** Returns the agent's repository for a URL, backed by a mirror in `cacheDir`. */
export async function remoteAgentRepo(opts: {
  url: string;
  cluster: string;
  branchPrefix: string;
  tokenFile?: string;
  cacheDir?: string;
}): Promise<AgentRepo> {
  const token = await readToken({ env: process.env, ...(opts.tokenFile ? { file: opts.tokenFile } : {}) });
  return remoteHubRepo({
    url: opts.url,
    cacheDir:
      opts.cacheDir ??
      join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gitfleet', 'agent-mirrors'),
    ...(token ? { token } : {}),
    sourceRef: `${opts.branchPrefix}clusters/${opts.cluster}`,
    branchPrefix: opts.branchPrefix,
  });
}
