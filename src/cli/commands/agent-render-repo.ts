// The agent's repository when cluster branches may live in render repositories
// (loops/agent/agent-branch-repo.ts): the fleet repository as always (a mirror for a URL, the
// path itself), and, once the bindings branch names a render repository for the cluster or
// `--render-repo` does, that repository (a mirror of its own holding the cluster branch alone,
// `--render-token-file`'s token, else the agent's). The fleet repository keeps one mirror
// whatever the branch's place: it holds the bindings branch, status and heartbeat already, so
// the start that learns the place from it costs the fleet repository one ls-refs and one fetch
// (docs/git-budget.md#render-repositories). While the branch lives elsewhere, that mirror's
// deletion allowance is proven from the render repository's head, and its probe asks for the
// bindings branch (what a tombstone waits for). A local path is read in place.
import { readRef } from '../../adapters/git/read-ref.js';
import { readToken } from '../../adapters/remote/read-token.js';
import { remoteHubRepo, type RemoteHubRepo } from '../../adapters/remote/remote-hub-repo.js';
import { RemoteError } from '../../adapters/remote/remote-error.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { agentBranchRepo, type AgentBranchRepo } from '../../loops/agent/agent-branch-repo.js';
import { localAgentRepo, type AgentRepo } from '../../loops/agent/agent-repo.js';
import type { Logger } from '../../loops/runtime/logger.js';
import { bindingsRef, clusterRef } from '../../core/publish/hub-refs.js';
import { agentRemoteOptions, remoteAgentRepo, type AgentRemoteOptions } from './agent-remote-repo.js';
import { privateFiles } from './hub-remote-setup.js';
import type { AgentMirrors } from '../../loops/agent/agent-pass-maintenance.js';

type Probing = { probeSource: () => Promise<string | null> };

/** What openAgentRepo is given: the remote options, where to read, and whose tokens. */
export type OpenAgentRepoOptions = AgentRemoteOptions & {
  repo: string;
  cluster: string;
  branchPrefix: string;
  tokenFile?: string;
  renderRepo?: string;
  renderTokenFile?: string;
  log: Logger;
};

/** Returns the agent's repository: its cluster branch read where the hub publishes it. */
export async function openAgentRepo(opts: OpenAgentRepoOptions): Promise<AgentBranchRepo & AgentMirrors> {
  const { cluster, branchPrefix } = opts;
  const mirrors = new Set<AgentRepo>();
  const mirrored = <T extends AgentRepo>(made: T): T => {
    mirrors.add(made);
    return made;
  };
  const remote = isRepoUrl(opts.repo);
  // Where the allowance's source branch is decided: the head of the branch the agent reads.
  const made: { repo?: AgentBranchRepo } = {};
  const allowanceHead = async () => {
    const repo = made.repo;
    if (repo?.location() === undefined) return undefined; // the fleet mirror holds the branch
    const commit = await readRef(repo.gitdir, clusterRef(branchPrefix, cluster));
    return commit === null ? null : { gitdir: repo.gitdir, commit };
  };
  const fleet = remote
    ? mirrored(
        await remoteAgentRepo({
          ...opts,
          url: opts.repo,
          ...(opts.tokenFile ? { tokenFile: opts.tokenFile } : {}),
          branchOptional: true,
          allowanceHead,
        }),
      )
    : localAgentRepo(opts.repo);
  const fleetToken = remote ? await tokenOf(opts.tokenFile) : undefined;
  const renders = new Map<string, AgentRepo & Partial<Pick<RemoteHubRepo, 'announceHead'>>>();
  let withoutBranch: AgentRepo | undefined;
  const fleetWithoutBranch = (): AgentRepo =>
    (withoutBranch ??= remote ? bindingsView(fleet, bindingsProbe(opts, fleetToken)) : fleet);
  const repo = await agentBranchRepo(
    {
      fleet,
      fleetWithoutBranch,
      render: renderRepoOpener(opts, mirrored, renders),
      ...(opts.renderRepo ? { override: opts.renderRepo } : {}),
      // A remote fleet repository without the branch, and no record of it elsewhere: as before render repositories, an outage.
      ...(remote
        ? {
            missing: () =>
              new RemoteError(
                'MissingRef',
                `${clusterRef(branchPrefix, cluster)}: not on ${fleet.description}, and its bindings branch names no render repository for ${cluster}; has the hub rendered it?`,
                clusterRef(branchPrefix, cluster),
              ),
          }
        : {}),
    },
    { branchPrefix, cluster, log: opts.log },
  );
  made.repo = repo;
  // A ring's head goes to the mirror of the render repository the branch is read from now (fetch-known-head.ts).
  const announceHead: RemoteHubRepo['announceHead'] = (head, refused) =>
    renders.get(repo.location() ?? '')?.announceHead?.(head, refused);
  return Object.assign(repo, { mirrors: () => [...mirrors], announceHead });
}

// The fleet mirror as the home of a branch that lives elsewhere: the same mirror, whose probe
// asks where the bindings branch is (the branch poll's second question while the branch is a
// tombstone, agent-branch-repo.ts).
function bindingsView(fleet: AgentRepo, probe: () => Promise<string | null>): AgentRepo & Probing {
  return {
    get gitdir() {
      return fleet.gitdir;
    },
    description: fleet.description,
    refresh: () => fleet.refresh(),
    publish: (moves) => fleet.publish(moves),
    probeSource: probe,
  };
}

// Where the fleet repository's bindings branch is now: one ls-refs, through the process's
// rate-limit gate for the URL. The repository object makes no mirror: it is never refreshed.
function bindingsProbe(opts: OpenAgentRepoOptions, token: string | undefined): () => Promise<string | null> {
  const probing = remoteHubRepo({
    ...agentRemoteOptions(opts),
    url: opts.repo,
    mirrorKey: `agent ${opts.cluster} bindings probe`,
    ...(token ? { token } : {}),
    sourceRef: bindingsRef(opts.branchPrefix),
    sourceOptional: true,
    branchPrefix: opts.branchPrefix,
    onlyRefs: [],
  });
  return () => probing.probeSource();
}

// Opens a render repository once per URL: a mirror holding the cluster branch alone, or a path.
function renderRepoOpener(
  opts: OpenAgentRepoOptions,
  mirrored: <T extends AgentRepo>(made: T) => T,
  renders: Map<string, AgentRepo>,
): (url: string) => Promise<AgentRepo> {
  const { cluster, branchPrefix } = opts;
  return async (url) => {
    const known = renders.get(url);
    if (known) return known;
    const token = isRepoUrl(url) ? await tokenOf(opts.renderTokenFile ?? opts.tokenFile) : undefined;
    if (isRepoUrl(url)) privateFiles();
    const repo = isRepoUrl(url)
      ? mirrored(
          remoteHubRepo({
            ...agentRemoteOptions(opts),
            url,
            mirrorKey: `agent ${cluster} render`,
            ...(token ? { token } : {}),
            sourceRef: `${branchPrefix}clusters/${cluster}`,
            branchPrefix,
            onlyRefs: [],
          }),
        )
      : localAgentRepo(url);
    renders.set(url, repo);
    return repo;
  };
}

function tokenOf(file: string | undefined): Promise<string | undefined> {
  return readToken({ env: process.env, ...(file ? { file } : {}) });
}
