// What a hub pass is given (hub-pass.ts): the repository and source, the identity and clock of
// its commits, the process's cache and failover memory, the side repositories and the keys.
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import type { TemplateSourceRenderer } from '../source/load-with-sources.js';
import type { SourceTree } from '../../adapters/render-tools/source-tree.js';
import type { CommitVerifier } from '../../adapters/signing/commit-verifier.js';
import type { Logger } from '../runtime/logger.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import type { SourceKeyFlags } from '../source/source-policy.js';
import type { HubFailover } from './hub-failover.js';
import type { HubPassCache } from './hub-pass-cache.js';
import type { RenderRepositories } from './render-repositories.js';
import type { StatusRepositories } from './status-repositories.js';
import type { HubPassHooks } from './write-hub-pass.js';

export interface HubPassOptions {
  repo: HubRepo;
  /** The source branch: a short name (`main`) or a full ref. */
  sourceRef: string;
  /** Author and committer of the hub's commits. */
  identity: { name: string; email: string };
  /** The time the hub's commits carry. */
  now: () => Date;
  log: Logger;
  /** What the previous passes of this process learned; a fresh cache gives the same result, slower. */
  cache?: HubPassCache;
  /** Render and converge even when the bindings branch says S was rendered already. */
  force?: boolean;
  /** Passes run in all when other writers keep winning the race for the refs (default 5). */
  maxAttempts?: number;
  hooks?: HubPassHooks;
  /** Monotonic milliseconds for the timings (default performance.now). */
  elapsed?: () => number;
  /** Failover settings, memory and the monitor's verdicts (default: Karmada's defaults, no monitor). */
  failover?: HubFailover;
  /** Told as the templates are rendered (a terminal shows it on a long first render). */
  progress?: (done: number, total: number) => void;
  /**
   * Keep the pass cache in `<gitdir>/gitfleet/hub-memo-v2` after each pass that moved refs, and
   * start a fresh cache from it (hub-memo.ts), so a restarted hub costs what changed (default
   * true). `'readOnly'`: start from it, leave the writing to the caller (saveHubMemo).
   * `'deferred'`: start from it, and note on the cache what the memo of this pass would name
   * (memoPending), for the caller to write when it is idle (saveDeferredHubMemo): writing costs
   * about as much CPU as a warm pass of 2,000 × 50 several times over, so a running hub does not
   * pay it after every pass.
   */
  persistMemo?: boolean | 'readOnly' | 'deferred';
  /**
   * The least time between two bindings commits that only record moved status branches
   * (`--status-record-interval`, status-record-gap.ts): such a pass waits for it (default 0: none).
   */
  statusRecordGapMs?: number;
  /** The status repositories (status-repositories.ts); absent: every status is in `repo`. */
  statusRepositories?: StatusRepositories;
  /** The render repositories (render-repositories.ts); absent: every cluster branch is in `repo`. */
  renderRepositories?: RenderRepositories;
  /** Signs every commit the hub writes (`--signing-key`; docs/security.md); absent: unsigned. */
  signer?: CommitSigner;
  /** Source verification's keys and mode from the flags (hub-source-gate.ts); absent: the FleetConfig's alone. */
  sourceKeys?: SourceKeyFlags;
  /** Renders the fleet's HelmSources and KustomizeSources (docs/sources.md); absent: a fleet with one fails to load. */
  sourceRenderer?: TemplateSourceRenderer<SourceTree>;
  /** The hub's earlier public keys (`--trusted-keys`): records they signed are the hub's own during a rotation (trust-hub-records.ts). */
  trustedKeys?: CommitVerifier;
  /** An unsigned bindings head the hub reads as its own on its first signed pass (`--adopt-records`; trust-hub-records.ts). */
  adoptRecords?: string;
}
