// The agent's status repositories (loops/agent/status-target.ts): `--status-repo` or the URL the
// hub wrote into the cluster branch, opened once per URL. A URL gets a mirror of its own (keyed
// by the cluster, as the agent's fleet mirror is) holding only the cluster's status branch and
// heartbeat; the token is `--status-token-file`'s, else the agent's (`--token-file`, then
// $GITFLEET_GIT_TOKEN). A local path is written in place. A path that is no repository, or a URL
// that does not answer, fails at the pass's refresh, which reports it and keeps applying.
import { readToken } from '../../adapters/remote/read-token.js';
import { remoteHubRepo } from '../../adapters/remote/remote-hub-repo.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { localAgentRepo, type AgentRepo } from '../../loops/agent/agent-repo.js';
import type { StatusRepos } from '../../loops/agent/status-target.js';
import { heartbeatRef, statusRef } from '../../core/publish/hub-refs.js';
import { agentRemoteOptions, type AgentRemoteOptions } from './agent-remote-repo.js';

/** Returns how the agent opens its status repositories. */
export function agentStatusRepos(
  opts: AgentRemoteOptions & {
    cluster: string;
    branchPrefix: string;
    statusRepo?: string;
    statusTokenFile?: string;
    tokenFile?: string;
  },
): StatusRepos {
  const opened = new Map<string, Promise<AgentRepo>>();
  const open = async (url: string): Promise<AgentRepo> => {
    if (!isRepoUrl(url)) return localAgentRepo(url);
    const tokenFile = opts.statusTokenFile ?? opts.tokenFile;
    const token = await readToken({ env: process.env, ...(tokenFile ? { file: tokenFile } : {}) });
    return remoteHubRepo({
      ...agentRemoteOptions(opts),
      url,
      mirrorKey: `agent status ${opts.cluster}`,
      ...(token ? { token } : {}),
      // A status repository holds no source branch: `main` is fetched when there is one.
      sourceRef: 'main',
      sourceOptional: true,
      branchPrefix: opts.branchPrefix,
      onlyRefs: [statusRef(opts.branchPrefix, opts.cluster), heartbeatRef(opts.branchPrefix, opts.cluster)],
    });
  };
  return {
    ...(opts.statusRepo !== undefined ? { override: opts.statusRepo } : {}),
    // A failed open is not kept: the next pass tries again (a path created meanwhile, a token file fixed).
    open: (url) => {
      const known = opened.get(url);
      if (known) return known;
      const made = open(url);
      opened.set(url, made);
      made.catch(() => opened.delete(url));
      return made;
    },
  };
}
