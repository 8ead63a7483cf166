// An agent's repository over HTTP(S): the same fetched mirror the hub uses, with the cluster
// branch as the branch to follow, holding only the branches the agent reads (agentMirrorRefs). The mirror's publish pushes only refs under the prefix, and
// the agent moves only its status branch and its heartbeat, so an agent needs read access to
// its cluster branch and write access to those two only (the heartbeat's pushes replace its
// commit: a host's branch protection must allow that on gitfleet/heartbeat/*). The token comes
// from $GITFLEET_GIT_TOKEN or a file.
// The cache directory defaults to the hub's (mirror-cache-dir.ts); the agent's mirror is
// keyed by its cluster as well as the URL, so it never shares a mirror with the hub or another
// agent on the same machine. Requests have the limits of remote-timeouts-from-env.ts and are
// aborted by `signal`. The other agents' heartbeats are quiet refs: their moves alone never
// make the agent fetch (it does not read them), or every refresh would be a fetch.
import { rm } from 'node:fs/promises';
import { readToken } from '../../adapters/remote/read-token.js';
import { mirrorDirFor } from '../../adapters/remote/open-mirror.js';
import { remoteHubRepo, type RemoteHubRepoOptions } from '../../adapters/remote/remote-hub-repo.js';
import { agentMirrorRefs, type AgentRepo } from '../../loops/agent/agent-repo.js';
import { privateFiles } from './hub-remote-setup.js';
import { defaultMirrorCacheDir } from '../mirror-cache-dir.js';
import { remoteTimeoutsFromEnv } from './remote-timeouts-from-env.js';
import { heartbeatRefPrefix } from '../../core/publish/hub-refs.js';

/** How the agent's mirrors reach their remotes: the same for its fleet and status repositories. */
export interface AgentRemoteOptions {
  cacheDir?: string;
  signal?: AbortSignal;
  onWarning?: (message: string) => void;
  /** Told of each fetch and push (the metrics). */
  onExchange?: RemoteHubRepoOptions['onExchange'];
  /** The process's rate-limit gates (rate-limit-gates-for.ts). */
  rateLimits?: RemoteHubRepoOptions['rateLimits'];
}

/** Returns the mirror options every agent remote shares: cache, timeouts, abort, warnings, metrics, gates. */
export function agentRemoteOptions(opts: AgentRemoteOptions) {
  return {
    cacheDir: opts.cacheDir ?? defaultMirrorCacheDir(),
    timeouts: remoteTimeoutsFromEnv(process.env),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onWarning ? { onWarning: opts.onWarning } : {}),
    ...(opts.onExchange ? { onExchange: opts.onExchange } : {}),
    ...(opts.rateLimits ? { rateLimits: opts.rateLimits } : {}),
  };
}

/** Returns the agent's repository for a URL, backed by a mirror in `cacheDir`. */
export async function remoteAgentRepo(
  opts: AgentRemoteOptions & {
    url: string;
    cluster: string;
    branchPrefix: string;
    tokenFile?: string;
    /** The cluster branch may be missing: it may live in a render repository (agent-render-repo.ts). */
    branchOptional?: boolean;
    /** Where the cluster branch's head is while it lives elsewhere (agent-render-repo.ts). */
    allowanceHead?: RemoteHubRepoOptions['allowanceHead'];
  },
): Promise<AgentRepo> {
  const token = await readToken({ env: process.env, ...(opts.tokenFile ? { file: opts.tokenFile } : {}) });
  privateFiles();
  const { cacheDir } = agentRemoteOptions(opts);
  await removeRetiredMirrors(cacheDir, opts.url, opts.cluster);
  return remoteHubRepo({
    ...agentRemoteOptions(opts),
    url: opts.url,
    mirrorKey: `agent ${opts.cluster}`,
    ...(token ? { token } : {}),
    sourceRef: `${opts.branchPrefix}clusters/${opts.cluster}`,
    ...(opts.branchOptional ? { sourceOptional: true } : {}),
    branchPrefix: opts.branchPrefix,
    onlyRefs: agentMirrorRefs(opts.branchPrefix, opts.cluster),
    quietRefs: (ref) => ref.startsWith(heartbeatRefPrefix(opts.branchPrefix)),
    ...(opts.allowanceHead ? { allowanceHead: opts.allowanceHead } : {}),
  });
}

/**
 * The mirror keys agents no longer use: until 6 December an agent whose branch lived in a render
 * repository kept a second mirror of the fleet repository (`agent <cluster> fleet`) for the
 * bindings branch; its one fleet mirror holds that branch now (docs/git-budget.md#render-repositories).
 */
const retiredMirrorKeys = (cluster: string) => [`agent ${cluster} fleet`];

/** Removes this agent's retired mirrors of `url` from the cache directory (a cache: nothing is lost). */
export async function removeRetiredMirrors(cacheDir: string, url: string, cluster: string): Promise<void> {
  await Promise.all(
    retiredMirrorKeys(cluster).map((key) =>
      rm(mirrorDirFor(cacheDir, url, key), { recursive: true, force: true }),
    ),
  );
}
