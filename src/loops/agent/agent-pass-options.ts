// What one agent pass is given (run-agent-pass.ts): the repositories, the cluster and its
// client, the memory between passes, the guards and the keys.
import type { PruneGuard } from '../../core/apply-plan/plan-prune.js';
import type { AgentSecrets } from './decrypt-branch.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import type { CommitVerifier } from '../../adapters/signing/commit-verifier.js';
import type { Clock } from '../runtime/clock.js';
import type { Progress } from '../runtime/progress.js';
import type { AgentMemory } from './agent-memory.js';
import type { AgentRepo } from './agent-repo.js';
import type { ClusterApi } from './cluster-api.js';
import type { PushPacer } from './push-pacer.js';
import type { StatusRepos } from './status-target.js';

export interface AgentPassOptions {
  /** Where the cluster branch is read: the fleet repository, or a render repository (agent-branch-repo.ts). */
  repo: AgentRepo;
  /**
   * The fleet repository when `repo` reads the cluster branch from a render repository: where the
   * hub's bindings branch (deletion allowances, the hub's record) and, without a status
   * repository, the agent's status live. Absent: `repo` itself.
   */
  fleetRepo?: () => AgentRepo;
  client: ClusterApi;
  cluster: string;
  /** Prefix of gitfleet's branches (the FleetConfig's branchPrefix), e.g. `gitfleet/`. */
  branchPrefix: string;
  /** Name of the inventory ConfigMap (default gitfleet-inventory-<cluster>; inventory-location.ts). */
  inventoryName?: string;
  /** The fleet's identity (`--fleet`); default: the root commit of the cluster branch (read-fleet-identity.ts). */
  fleet?: string;
  memory: AgentMemory;
  clock: Clock;
  identity: { name: string; email: string };
  guard: PruneGuard;
  /** Whose commits' deletion allowances are honoured (default: the hub's default identity). */
  hubIdentity?: { name: string; email: string };
  /** How long deletions wait for the hub after a return (default 5 min; return-handshake.ts). */
  returnPruneTimeoutMs?: number;
  /** Whether the first pass of the process counts as a return (the loop: yes; `--once`: no). */
  returnOnStart?: boolean;
  /** The heartbeat lease: Git unreachable for longer than this starts a return (default 40 s). */
  leaseDurationMs?: number;
  /** Allow deletions past the guard (besides a Gitfleet-Allow-Deletions trailer on the branch's commit, proven to come from the hub). */
  allowDeletions: boolean;
  concurrency: number;
  crdTimeoutMs: number;
  /** Cluster facts older than this are read again. */
  factsMaxAgeMs: number;
  /** Told when writing the status branch recovered the ref locks a killed writer left (default: nobody). */
  warn?: (message: string) => void;
  /** Told of changes that are not problems (a status repository answering again). */
  info?: (message: string) => void;
  /** Status repositories (status-target.ts); absent: status and heartbeat go to `repo`. */
  statusRepos?: StatusRepos;
  /** Paces the status push (push-pacer.ts); absent: pushed at once (`--once`). */
  pacer?: PushPacer;
  /** Told as the objects are applied (a terminal shows it on long passes). */
  progress?: Progress;
  /**
   * Aborted when the agent stops holding its cluster's Lease: the pass then sends nothing more
   * and ends at the next object or step with NotLeading, without writing status. Absent: runs to the end.
   */
  signal?: AbortSignal;
  /** The keys the cluster branch's head must be signed with (`--trusted-keys`); absent: nothing is verified. */
  verifier?: CommitVerifier;
  /** Signs the status commits (`--signing-key`); absent: unsigned. */
  signer?: CommitSigner;
  /** The age identities SOPS-encrypted files are decrypted with (`--age-identity`; decrypt-branch.ts); absent: they are not applied. */
  secrets?: AgentSecrets;
}

/** Returns the fleet repository: where the bindings branch and the agent's own status live. */
export function homeOf(opts: Pick<AgentPassOptions, 'repo' | 'fleetRepo'>): AgentRepo {
  return opts.fleetRepo?.() ?? opts.repo;
}
