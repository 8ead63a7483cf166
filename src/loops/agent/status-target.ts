// Where the agent writes its status branch and heartbeat (docs/git-budget.md#status-repositories):
// `--status-repo` when given, else the status repository the hub named in the cluster branch's
// `.gitfleet/status-repository`, else the agent's own repository (the fleet repository, as
// before status repositories). The ref names are the same wherever they live.
//
// A status repository that cannot be read (missing, no access) or refuses the write is a
// problem of the report only: the pass still applies, prunes and corrects drift from the cluster
// branch, and its status is skipped. The problem is logged once when it starts or changes, and
// once when it ends, never per pass.
import { GitfleetError } from '../../core/model/gitfleet-error.js';
import type { AgentRepo } from './agent-repo.js';
import type { BranchRead } from './read-cluster-branch.js';

/** What the CLI hands the pass: the override flag and how to open a status repository by URL or path. */
export interface StatusRepos {
  /** `--status-repo`: wins over the branch's file. */
  override?: string;
  /** Returns the repository at a URL or path; the same object for the same URL (it keeps a mirror). */
  open(url: string): Promise<AgentRepo>;
}

/** The part of the agent's memory (agent-memory.ts) that remembers the target. */
export interface TargetMemory {
  statusTarget?: StatusTarget;
}

/** The repository the status and heartbeat of this term go to. */
export interface StatusTarget {
  repo: AgentRepo;
  /** Set when it is a status repository, not the agent's own. */
  url?: string;
  /** Why the status repository cannot be written now, when it cannot. */
  problem?: string;
  /** Whether reading it failed (the pass skips its status) or the last write did (the pass tries again). */
  problemKind?: 'read' | 'write';
  /**
   * A status repository read since it became the target, with no lost race since: its mirror
   * holds this cluster's status and heartbeat as the agent last pushed them, and only this
   * cluster's agent writes them, so the next pass need not read it again.
   */
  read?: true;
}

/** Returns the URL the status goes to, or undefined for the agent's own repository. */
export function statusUrlOf(
  repos: StatusRepos | undefined,
  branch: BranchRead,
  last?: StatusTarget,
): string | undefined {
  if (repos === undefined) return undefined;
  if (repos.override !== undefined) return repos.override;
  // A missing or tombstoned branch says nothing: keep writing where the last branch said.
  return branch.type === 'objects' ? branch.statusRepository : last?.url;
}

/**
 * Resolves and refreshes this pass's status target (kept in memory for the heartbeat); a status
 * repository that does not answer gives a target with its problem, never an exception.
 */
export async function resolveStatusTarget(opts: {
  repo: AgentRepo;
  repos?: StatusRepos;
  branch: BranchRead;
  memory: TargetMemory;
  warn?: (message: string) => void;
  info?: (message: string) => void;
}): Promise<StatusTarget> {
  const url = statusUrlOf(opts.repos, opts.branch, opts.memory.statusTarget);
  if (url === undefined || opts.repos === undefined) return remember(opts, { repo: opts.repo });
  const last = opts.memory.statusTarget;
  if (last?.url !== url && last?.url !== undefined)
    opts.info?.(`status repository changed from ${last.url} to ${url}`);
  // Read once, not at every pass: a ring that moves every branch would otherwise send each
  // agent to its status repository too, a second burst of reads after the fetches.
  if (last?.url === url && last.read === true && last.problem === undefined) return last;
  let repo: AgentRepo;
  try {
    repo = await opts.repos.open(url);
    await repo.refresh();
  } catch (error) {
    const problem = problemOf(url, error);
    return remember(opts, {
      repo: last?.url === url ? last.repo : opts.repo,
      url,
      problem,
      problemKind: 'read',
    });
  }
  // A refused write stays the problem until a write succeeds (noteStatusWritten): reading alone proves nothing.
  const refused = last?.url === url && last.problemKind === 'write' && last.problem !== undefined;
  return remember(
    opts,
    refused ? { repo, url, problem: last.problem!, problemKind: 'write' } : { repo, url, read: true },
  );
}

/** Records that the target's copy may be stale (a write lost its race): the next pass reads it again. */
export function noteStatusStale(memory: TargetMemory): void {
  const target = memory.statusTarget;
  if (target?.read !== true) return;
  const stale = { ...target };
  delete stale.read;
  memory.statusTarget = stale;
}

/** Records that the status write to the target succeeded: a refusal before it is over. */
export function noteStatusWritten(
  opts: { memory: TargetMemory; warn?: (message: string) => void; info?: (message: string) => void },
  target: StatusTarget,
): void {
  if (target.problem !== undefined)
    remember(opts, { repo: target.repo, ...(target.url ? { url: target.url } : {}) });
}

/** Records that the status write to the target failed; returns the target with its problem. */
export function noteStatusWriteFailed(
  opts: { memory: TargetMemory; warn?: (message: string) => void; info?: (message: string) => void },
  target: StatusTarget,
  error: unknown,
): StatusTarget {
  const problem = problemOf(target.url ?? target.repo.description, error, 'refuses the write');
  return remember(opts, { ...target, problem, problemKind: 'write' });
}

function problemOf(url: string, error: unknown, what = 'cannot be read'): string {
  const message = error instanceof Error ? error.message : String(error);
  return `status repository ${url} ${what}: ${message}; status and heartbeat are not written there, the cluster branch is still applied`;
}

// One log line when the problem starts or changes, one when it ends.
function remember(
  opts: { memory: TargetMemory; warn?: (message: string) => void; info?: (message: string) => void },
  next: StatusTarget,
): StatusTarget {
  const last = opts.memory.statusTarget;
  const before = last?.problem;
  if (next.problem !== undefined && next.problem !== before) opts.warn?.(next.problem);
  // Said of the same repository only: moving away from a broken one is said by the move.
  if (next.problem === undefined && before !== undefined && next.url !== undefined && next.url === last?.url)
    opts.info?.(`status repository ${next.url} answers again`);
  opts.memory.statusTarget = next;
  return next;
}

/** A status repository that cannot be read gets no heartbeat, and nothing goes to the agent's own repository instead. */
export class StatusRepositoryUnreadable extends GitfleetError<'StatusRepositoryUnreadable'> {
  constructor(message: string) {
    super(message, { code: 'StatusRepositoryUnreadable' });
  }
}

/** Returns where the heartbeat goes: this term's status target, else `fallback`; throws while the target cannot be read. */
export function heartbeatRepo(memory: TargetMemory, fallback: AgentRepo): AgentRepo {
  const target = memory.statusTarget;
  if (target?.problemKind === 'read') throw new StatusRepositoryUnreadable(target.problem!);
  return target?.repo ?? fallback;
}
