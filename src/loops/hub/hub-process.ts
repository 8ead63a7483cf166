// The hub as a process (docs/architecture.md#the-hub-loop): what `gitfleet hub` wires around
// the pass once it has built its adapters. The cluster monitor (not with --once: it judges no
// one), the process's one failover memory (the rate limit's last eviction outlives a pass), the
// pass with the maintenance of the repositories it writes and the leader's last look before its
// refs move, and the hub loop run each time this replica leads. The command parses its flags,
// builds the repositories, the doorbell and the election, and prints; this is the rest.
import type { FailoverSettings } from '../../core/model/failover.js';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import type { Clock } from '../runtime/clock.js';
import type { Leadership } from '../runtime/leadership.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import type { Progress } from '../runtime/progress.js';
import type { Readiness } from '../runtime/readiness.js';
import type { Trigger } from '../runtime/trigger.js';
import { assertLeading, whileLeading } from '../runtime/while-leading.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import { repoMaintenance, withRepoMaintenance, type RepoMaintenance } from '../runtime/repo-maintenance.js';
import { clusterMonitor, type ClusterMonitor, type RefSnapshot } from './cluster-monitor.js';
import { defaultClusterMonitorSettings, type ClusterMonitorSettings } from './cluster-monitor-rules.js';
import { defaultHubFailover, type HubFailover } from './hub-failover.js';
import { runHubLoop } from './hub-loop.js';
import { saveDeferredHubMemo } from './hub-memo.js';
import { runHubPass } from './hub-pass.js';
import type { HubPassCache } from './hub-pass-cache.js';
import type { HubPassOptions } from './hub-pass-options.js';
import type { HubPassResult } from './hub-pass-result.js';
import type { RenderRepositories } from './render-repositories.js';
import type { StatusRepositories } from './status-repositories.js';

/** The hub's settings from its flags. */
export interface HubProcessSettings {
  sourceRef: string;
  once: boolean;
  /** Resync period of the loop; a remote is seen at each. */
  intervalMs: number;
  branchPrefix?: string;
  /** The cluster monitor's settings (default: Karmada's); unused with --once. */
  monitor?: ClusterMonitorSettings;
  /** The failover flags (default: defaultFailoverSettings). */
  failover?: FailoverSettings;
  identity: { name: string; email: string };
  /** `--status-record-interval` (status-record-gap.ts; default 0: none). */
  statusRecordGapMs?: number;
}

/** The adapters the command built, and the process's clocks and logger. */
export interface HubProcessParts {
  /** The repository and the triggers (a remote's: what it advertised at its last poll, `observe`). */
  setup: { repo: HubRepo; triggers: Trigger[]; observe?: () => RefSnapshot | undefined };
  /** The repository the pass writes: the setup's, or the doorbell's wrapper of it. */
  repo: HubRepo;
  cache: HubPassCache;
  statusRepositories: StatusRepositories;
  renderRepositories: RenderRepositories;
  /** The maintenance of the status and render repositories' mirrors. */
  maintenance: RepoMaintenance;
  leadership: Leadership;
  signing: Pick<HubPassOptions, 'signer' | 'sourceKeys' | 'trustedKeys'>;
  /** Each registered cluster's key, as the last pass loaded the fleet. */
  signingKeys: () => ReadonlyMap<string, string | undefined> | undefined;
  /** The doorbell's beacons by cluster; absent: no doorbell. */
  beacons?: () => ReadonlyMap<string, number>;
  sourceRenderer?: HubPassOptions['sourceRenderer'];
  progress?: Progress;
  clock: Clock;
  /** The monitor's monotonic clock, in milliseconds. */
  elapsed: () => number;
  log: Logger;
}

/** A hub process: its monitor (none with --once) and its pass as the process runs it. */
export interface HubProcess {
  monitor?: ClusterMonitor;
  /** One pass, then the maintenance of the repositories it wrote. */
  pass: () => Promise<HubPassResult>;
}

/** Returns the hub's monitor and its pass, wired to one failover memory. */
export function hubProcess(settings: HubProcessSettings, parts: HubProcessParts): HubProcess {
  const monitor = settings.once ? undefined : hubClusterMonitor(settings, parts);
  const failover: HubFailover = {
    ...defaultHubFailover(),
    ...(settings.failover ? { settings: settings.failover } : {}),
    ...(monitor ? { verdicts: () => monitor.verdicts(), judging: () => monitor.judging() } : {}),
  };
  return { ...(monitor ? { monitor } : {}), pass: maintainedHubPass(settings, parts, failover) };
}

// The cluster monitor over the repository the hub reads (or its mirror) and the side repositories.
function hubClusterMonitor(settings: HubProcessSettings, parts: HubProcessParts): ClusterMonitor {
  const monitorSettings = settings.monitor ?? defaultClusterMonitorSettings;
  const { setup } = parts;
  return clusterMonitor({
    gitdir: setup.repo.gitdir,
    branchPrefix: settings.branchPrefix ?? setup.repo.branchPrefix ?? defaultBranchPrefix,
    settings: monitorSettings,
    elapsed: parts.elapsed,
    clock: parts.clock,
    log: parts.log,
    statusRepositories: parts.statusRepositories,
    renderRepositories: parts.renderRepositories,
    signingKeys: parts.signingKeys,
    ...(parts.beacons ? { beacons: parts.beacons } : {}),
    // A remote is seen at each poll (--interval): only a gap of two polls is blindness.
    ...(setup.observe
      ? {
          observe: setup.observe,
          blindAfterMs: Math.max(monitorSettings.gracePeriodMs, 2 * settings.intervalMs),
        }
      : {}),
  });
}

// One hub pass, the repository it writes maintained after it, then the side repositories' mirrors.
function maintainedHubPass(
  settings: HubProcessSettings,
  parts: HubProcessParts,
  failover: HubFailover,
): () => Promise<HubPassResult> {
  const { clock, log, cache, leadership } = parts;
  const pass = withRepoMaintenance(
    () =>
      runHubPass({
        ...(parts.progress ? { progress: parts.progress } : {}),
        repo: parts.repo,
        sourceRef: settings.sourceRef,
        identity: settings.identity,
        now: () => new Date(clock.now()),
        log,
        cache,
        ...(parts.sourceRenderer ? { sourceRenderer: parts.sourceRenderer } : {}),
        failover,
        statusRepositories: parts.statusRepositories,
        renderRepositories: parts.renderRepositories,
        ...(settings.statusRecordGapMs ? { statusRecordGapMs: settings.statusRecordGapMs } : {}),
        ...parts.signing,
        // --once writes the memo after its pass; the loop when it is idle (hub-loop.ts).
        persistMemo: settings.once ? true : 'deferred',
        // The last look before the refs move: a replica whose renewal is overdue moves none.
        ...(leadership.elected
          ? {
              hooks: {
                afterObjectsWritten: () => assertLeading(leadership, 'hub', 'this pass moved no ref'),
              },
            }
          : {}),
      }),
    // The maintenance of the repository the hub writes (or of its mirror), between its passes.
    repoMaintenance({
      gitdir: parts.setup.repo.gitdir,
      packCache: cache.packs,
      clock,
      log,
      elapsed: parts.elapsed,
    }),
  );
  return withRepoMaintenance(pass, parts.maintenance);
}

/** How the loop is stopped, counted and told about, and what hears of its passes. */
export interface HubLoopRun {
  /** Resolves when the process must stop (SIGINT, SIGTERM). */
  stop: Promise<void>;
  /** Aborted when the process must stop (ends a wait for the lease). */
  signal: AbortSignal;
  readiness: Readiness;
  metrics: Metrics;
  random: () => number;
  /** Told of every pass's result. */
  report: (result: HubPassResult) => void;
  /** Told when a term starts: a new term starts from what the branches say now. */
  newTerm?: () => void;
  /** Told when a term ends: a replica that stops leading sends its held agents back to polling. */
  standDown?: () => void;
}

/** Runs the hub loop each time this replica leads, until `stop`; returns once the pass in hand is done. */
export async function runHubProcess(
  parts: HubProcessParts,
  process: HubProcess,
  run: HubLoopRun,
): Promise<void> {
  const { leadership, log, clock, setup } = parts;
  const leading = { leadership, log, stop: run.stop, signal: run.signal, readiness: run.readiness };
  await whileLeading(leading, (stop) => {
    run.newTerm?.();
    return runHubLoop({
      pass: process.pass,
      triggers: process.monitor ? [...setup.triggers, process.monitor] : setup.triggers,
      clock,
      random: run.random,
      log,
      metrics: run.metrics,
      readiness: run.readiness,
      stop,
      saveMemo: () => saveDeferredHubMemo(parts.cache, { gitdir: setup.repo.gitdir, log }),
      report: run.report,
    }).finally(() => run.standDown?.());
  });
}
