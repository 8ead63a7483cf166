// The loops' metrics (loops/runtime/metrics.ts) in Prometheus form, with prom-client. One
// registry per process, never prom-client's global one, so a test can run a hub and agents in
// one process and scrape each apart. Every name starts with `gitfleet_`:
//
//   metric                                              type       labels   from
//   gitfleet_hub_pass_duration_seconds                  histogram           a hub pass's timings.totalMs
//   gitfleet_hub_passes_total                           counter    result   rendered, upToDate, loadFailed, sourceRefused, failed
//   gitfleet_hub_last_successful_pass_timestamp_seconds gauge               a pass that rendered or found it rendered
//   gitfleet_hub_rollout_decisions_total                counter    type     the pass's rolloutDecisions
//   gitfleet_hub_evictions_total                        counter    reason   its Evicted failover decisions
//   gitfleet_hub_source_refusals_total                  counter    problem  source commits refused (docs/security.md)
//   gitfleet_hub_notifications_total                    counter    receiver, outcome  delivered, failed, givenUp, dropped (docs/notifications.md)
//   gitfleet_hub_notification_backlog                   gauge      receiver events waiting for the receiver
//   gitfleet_agent_pass_duration_seconds                histogram           an agent pass's totalMs
//   gitfleet_agent_passes_total                         counter    result   applied, partlyApplied, gitUnreachable, …
//   gitfleet_agent_last_successful_pass_timestamp_seconds gauge             a pass that applied everything
//   gitfleet_agent_objects_total                        counter    outcome  applied, unchanged, failed, pruned
//   gitfleet_agent_drift_corrections_total              counter
//   gitfleet_agent_fights_backed_off_total              counter             objects whose correction paused
//   gitfleet_git_fetch_duration_seconds                 histogram           each fetch from a remote
//   gitfleet_git_fetch_failures_total                   counter
//   gitfleet_git_push_duration_seconds                  histogram           each push to a remote
//   gitfleet_git_push_failures_total                    counter
//   gitfleet_git_rate_limited_total                     counter    repository  429s and 403 rate limits
//
// plus prom-client's default process metrics (CPU, memory, event loop lag, GC), prefixed
// `gitfleet_` too. Only the metrics of the process's kind are registered: a hub has no agent
// metrics. An agent's metrics all carry its `cluster` label. The reports are the loops' own
// (core/model/pass-reports.ts), so this fits the loops' Metrics interface.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type {
  AgentPassReport,
  GitExchangeReport,
  HubPassReport,
  NotificationReport,
} from '../../core/model/pass-reports.js';

/** A process's metrics and the registry that renders them. */
export interface PrometheusMetrics {
  hubPass(report: HubPassReport): void;
  agentPass(report: AgentPassReport): void;
  gitExchange(report: GitExchangeReport): void;
  gitRateLimited(report: { repository: string }): void;
  notification(report: NotificationReport): void;
  /** Returns the text of a scrape and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

// Passes take from milliseconds (nothing changed) to minutes (a first render of a large fleet).
const passBuckets = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const gitBuckets = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Returns the metrics of a hub, or of the agent of `cluster`, in a registry of their own. */
export function prometheusMetrics(
  process: { kind: 'hub' } | { kind: 'agent'; cluster: string },
): PrometheusMetrics {
  const registry = new Registry();
  if (process.kind === 'agent') registry.setDefaultLabels({ cluster: process.cluster });
  collectDefaultMetrics({ register: registry, prefix: 'gitfleet_' });
  const git = gitMetrics(registry);
  const rateLimited = new Counter({
    name: 'gitfleet_git_rate_limited_total',
    help: 'Answers of a remote repository that said its rate limit was reached (429, or 403 saying so), by repository URL.',
    labelNames: ['repository'],
    registers: [registry],
  });
  const hub = process.kind === 'hub' ? hubMetrics(registry) : undefined;
  const agent = process.kind === 'agent' ? agentMetrics(registry) : undefined;
  const notifications = process.kind === 'hub' ? notificationMetrics(registry) : undefined;
  return {
    notification: (r) => notifications?.(r),
    hubPass: (r) => hub?.(r),
    agentPass: (r) => agent?.(r),
    gitExchange: (r) => git(r),
    gitRateLimited: (r) => rateLimited.inc({ repository: r.repository }),
    scrape: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}

function hubMetrics(registry: Registry): (r: HubPassReport) => void {
  const registers = [registry];
  const duration = new Histogram({
    name: 'gitfleet_hub_pass_duration_seconds',
    help: 'How long a hub pass took, from reading the source to publishing the branches.',
    buckets: passBuckets,
    registers,
  });
  const passes = new Counter({
    name: 'gitfleet_hub_passes_total',
    help: 'Hub passes by result: rendered, upToDate, loadFailed, sourceRefused, failed.',
    labelNames: ['result'],
    registers,
  });
  const lastSuccess = new Gauge({
    name: 'gitfleet_hub_last_successful_pass_timestamp_seconds',
    help: 'When the last hub pass that rendered the source (or found it rendered) finished, in unix seconds.',
    registers,
  });
  const rollout = new Counter({
    name: 'gitfleet_hub_rollout_decisions_total',
    help: 'Rollout decisions by type (Started, StepPassed, Halted, RolledBack, ...).',
    labelNames: ['type'],
    registers,
  });
  const evictions = new Counter({
    name: 'gitfleet_hub_evictions_total',
    help: 'Bindings evicted from a cluster, by reason (TaintUntolerated, ApplicationFailure, ...).',
    labelNames: ['reason'],
    registers,
  });
  const refusals = new Counter({
    name: 'gitfleet_hub_source_refusals_total',
    help: 'Source commits the hub refused to render, by signature problem (Unsigned, UnknownKey, BadSignature, ...).',
    labelNames: ['problem'],
    registers,
  });
  return (r) => {
    passes.inc({ result: r.result });
    if (r.sourceRefused !== undefined) refusals.inc({ problem: r.sourceRefused });
    if (r.seconds !== undefined) duration.observe(r.seconds);
    if (r.succeeded) lastSuccess.set(r.at);
    for (const type of r.rolloutDecisions) rollout.inc({ type });
    for (const reason of r.evictions) evictions.inc({ reason });
  };
}

function agentMetrics(registry: Registry): (r: AgentPassReport) => void {
  const registers = [registry];
  const duration = new Histogram({
    name: 'gitfleet_agent_pass_duration_seconds',
    help: 'How long an agent pass took, from refreshing the branch to writing status.',
    buckets: passBuckets,
    registers,
  });
  const passes = new Counter({
    name: 'gitfleet_agent_passes_total',
    help: 'Agent passes by result: applied, partlyApplied, gitUnreachable, clusterUnreachable, noBranch, tombstoned, failed.',
    labelNames: ['result'],
    registers,
  });
  const lastSuccess = new Gauge({
    name: 'gitfleet_agent_last_successful_pass_timestamp_seconds',
    help: 'When the last agent pass that applied its whole branch finished, in unix seconds.',
    registers,
  });
  const objects = new Counter({
    name: 'gitfleet_agent_objects_total',
    help: 'Objects handled by agent passes, by outcome: applied, unchanged, failed, pruned.',
    labelNames: ['outcome'],
    registers,
  });
  const corrections = new Counter({
    name: 'gitfleet_agent_drift_corrections_total',
    help: 'Objects whose drift the agent corrected.',
    registers,
  });
  const fights = new Counter({
    name: 'gitfleet_agent_fights_backed_off_total',
    help: 'Drift corrections the agent paused because another writer keeps undoing them.',
    registers,
  });
  // Each outcome is there from the start, at 0, so a rate over it needs no first event.
  for (const outcome of ['applied', 'unchanged', 'failed', 'pruned']) objects.inc({ outcome }, 0);
  return (r) => {
    passes.inc({ result: r.result });
    if (r.seconds !== undefined) duration.observe(r.seconds);
    if (r.succeeded) lastSuccess.set(r.at);
    for (const [outcome, n] of Object.entries(r.objects)) objects.inc({ outcome }, n);
    corrections.inc(r.driftCorrections);
    fights.inc(r.fightsBackedOff);
  };
}

function gitMetrics(
  registry: Registry,
): (r: { kind: 'fetch' | 'push'; seconds: number; ok: boolean }) => void {
  const registers = [registry];
  const of = (kind: 'fetch' | 'push') => ({
    duration: new Histogram({
      name: `gitfleet_git_${kind}_duration_seconds`,
      help: `How long a ${kind} ${kind === 'fetch' ? 'from' : 'to'} the remote repository took, failed ones included.`,
      buckets: gitBuckets,
      registers,
    }),
    failures: new Counter({
      name: `gitfleet_git_${kind}_failures_total`,
      help: `${kind === 'fetch' ? 'Fetches from' : 'Pushes to'} the remote repository that failed (a lost race included).`,
      registers,
    }),
  });
  const kinds = { fetch: of('fetch'), push: of('push') };
  return (r) => {
    kinds[r.kind].duration.observe(r.seconds);
    if (!r.ok) kinds[r.kind].failures.inc();
  };
}

function notificationMetrics(registry: Registry): (r: NotificationReport) => void {
  const total = new Counter({
    name: 'gitfleet_hub_notifications_total',
    help: 'Notifications by receiver (<policy>/<receiver>) and outcome: delivered, failed (an attempt, retried), givenUp, dropped (backlog full).',
    labelNames: ['receiver', 'outcome'],
    registers: [registry],
  });
  const backlog = new Gauge({
    name: 'gitfleet_hub_notification_backlog',
    help: 'Events waiting to be delivered to the receiver.',
    labelNames: ['receiver'],
    registers: [registry],
  });
  return (r) => {
    total.inc({ receiver: r.receiver, outcome: r.outcome }, r.count);
    backlog.set({ receiver: r.receiver }, r.backlog);
  };
}
