// The agent's pass, followed by the maintenance of the mirrors it owns
// (loops/runtime/repo-maintenance.ts): its status repository's, and each mirror its repository
// opened (the fleet repository's, a render repository's). A local repository is someone else's
// to maintain (the hub's).
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { repoMaintenance, type RepoMaintenance } from '../runtime/repo-maintenance.js';
import type { AgentRepo } from './agent-repo.js';
import { runAgentPass, type AgentPassOptions } from './run-agent-pass.js';
import type { StatusTarget } from './status-target.js';

/** The mirrors an agent owns (a local repository is someone else's to maintain). */
export interface AgentMirrors {
  mirrors(): AgentRepo[];
}

/** Returns the agent's pass, each mirror it owns repacked after it when due. */
export function agentPassWithMaintenance(deps: {
  passOptions: AgentPassOptions;
  clock: Clock;
  log: Logger;
}): () => ReturnType<typeof runAgentPass> {
  const { clock, log, passOptions } = deps;
  // A status repository's mirror takes the heartbeats' replaced commits: repacked as the fleet's is.
  const maintainStatus = statusMirrorMaintenance({ clock, log });
  const byGitdir = new Map<string, RepoMaintenance>();
  // The pass's repository reads through to the one the command opened (refresh-gate.ts).
  const owned = (passOptions.repo as Partial<AgentMirrors>).mirrors;
  return () =>
    runAgentPass(passOptions).then(async (result) => {
      await maintainStatus(passOptions.memory.statusTarget);
      for (const { gitdir } of owned?.() ?? []) {
        let maintenance = byGitdir.get(gitdir);
        if (!maintenance)
          byGitdir.set(gitdir, (maintenance = repoMaintenance({ gitdir, packCache: {}, clock, log })));
        await maintenance.afterPass();
      }
      return result;
    });
}

/**
 * Returns the maintenance of the status repositories' mirrors: after a pass, the one it wrote to
 * is repacked when due (repo-maintenance.ts), so the heartbeat's replaced commits do not pile up.
 */
export function statusMirrorMaintenance(deps: {
  clock: Clock;
  log: Logger;
}): (target: StatusTarget | undefined) => Promise<void> {
  const byGitdir = new Map<string, RepoMaintenance>();
  return async (target) => {
    // A path is someone else's repository to maintain; a mirror that did not open holds nothing.
    if (target?.url === undefined || !isRepoUrl(target.url) || target.problemKind === 'read') return;
    const { gitdir } = target.repo;
    let maintenance = byGitdir.get(gitdir);
    if (!maintenance) {
      maintenance = repoMaintenance({ gitdir, packCache: {}, clock: deps.clock, log: deps.log });
      byGitdir.set(gitdir, maintenance);
    }
    await maintenance.afterPass();
  };
}
