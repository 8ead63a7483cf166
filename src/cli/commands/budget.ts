// `gitfleet budget --repo <path|url> [--clusters N] [--forge F] [timing flags] [-o text|json]`:
// what the fleet's settings cost each repository in Git requests (src/core/budget), against
// the forge's budget, and what to change when one is over. Exit 0 when every repository is
// within, 1 when one is over. The fleet repository is read for its clusters and templates (a
// URL through a fetched mirror, as `status` reads it); --clusters prices another size.
import { forgeBudget, type Forge, type ForgeBudget } from '../../core/budget/forge-budget.js';
import { renderRepositoriesFor, statusRepositoriesFor } from '../../core/budget/plan-pacing.js';
import { judgeBudget, type BudgetVerdict } from '../../core/budget/judge-budget.js';
import { modelTraffic, type TrafficModel } from '../../core/budget/model-traffic.js';
import { measuredWork } from '../../core/budget/model-latency.js';
import type { FleetShape, TrafficSettings } from '../../core/budget/traffic-settings.js';
import { formatLoadError, loadFleet } from '../../core/load/load-fleet.js';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { readToken } from '../../adapters/remote/read-token.js';
import { redactUrl } from '../../adapters/remote/redact-secrets.js';
import { remoteHubRepo } from '../../adapters/remote/remote-hub-repo.js';
import { exitCodes } from '../exit-codes.js';
import { forgeOf } from '../forge-profile.js';
import type { FlagValues } from '../command-line.js';
import type { Io } from '../io.js';
import { defaultMirrorCacheDir } from '../mirror-cache-dir.js';
import { readSource, sourceBranchOf } from '../read-source.js';
import { defineCommand } from '../run-command.js';
import { UsageError } from '../usage-error.js';
import { budgetSpec } from './budget-spec.js';
import { parseWholeNumber } from './hub-spec.js';
import { CommandError } from '../command-error.js';

/** `gitfleet budget`: parses its command line, models the traffic and judges it. */
export const budgetCommand = defineCommand({
  spec: budgetSpec,
  run: ({ values }, io) => runBudget(values, io),
});

type BudgetValues = FlagValues<(typeof budgetSpec)['flags']>;

/** Returns the exit code: ok when every repository fits its forge's budget, failed when one does not. */
export async function runBudget(values: BudgetValues, io: Io): Promise<number> {
  const forge = forgeOf({ repo: values.repo, forge: values.forge }) ?? 'generic';
  const counted = await countFleet(values);
  const clusters =
    values.clusters === undefined
      ? counted.clusters
      : parseWholeNumber(values.clusters, 'clusters', 'clusters');
  const settings = settingsOf(
    values,
    forge,
    statusRepositoriesOf(values, forge, clusters, counted),
    renderRepositoriesOf(values, forge, clusters, counted),
  );
  const fleet: FleetShape = {
    clusters,
    templates: counted.templates,
    fleetPushesPerHour: rate(values['fleet-pushes-per-hour'], 'fleet-pushes-per-hour'),
    statusChangesPerClusterPerHour: rate(values['status-changes-per-hour'], 'status-changes-per-hour'),
    // The fleet's share of keyed clusters, at the size priced.
    keyedClusters: counted.clusters === 0 ? 0 : Math.round((clusters * counted.keyed) / counted.clusters),
  };
  const model = modelTraffic(fleet, settings);
  const verdict = judgeBudget(forge, model, settings);
  const url = redactUrl(values.repo);
  if (values.output === 'json') io.out(JSON.stringify(budgetJson(url, model, verdict), null, 2));
  else io.out(formatBudget({ url, fleet, model, verdict, settings }));
  return verdict.within ? exitCodes.ok : exitCodes.failed;
}

/**
 * Returns the status repositories to price: --status-repositories, else what --status-lag needs
 * with the doorbell's push slots (plan-pacing.ts), else the FleetConfig's.
 */
function statusRepositoriesOf(
  v: BudgetValues,
  forge: Forge,
  clusters: number,
  counted: { statusRepositories: number },
): number {
  if (v['status-repositories'] !== undefined)
    return parseWholeNumber(v['status-repositories'], 'status-repositories', 'repositories');
  const lag = v['status-lag'];
  if (lag === undefined) return counted.statusRepositories;
  if (!v.doorbell)
    throw new UsageError("--status-lag needs --doorbell: the push slots it prices are the doorbell's");
  return statusRepositoriesFor(clusters, forgeBudget(forge), lag / 1000);
}

/**
 * Returns the render repositories to price: what --fetch-spread needs with the doorbell's fetch
 * turns (plan-pacing.ts), else --render-repositories.
 */
function renderRepositoriesOf(
  v: BudgetValues,
  forge: Forge,
  clusters: number,
  counted: { renderRepositories: number },
): number {
  const spread = v['fetch-spread'];
  if (spread === undefined)
    return v['render-repositories'] === undefined
      ? counted.renderRepositories
      : parseWholeNumber(v['render-repositories'], 'render-repositories', 'repositories');
  if (!v.doorbell)
    throw new UsageError("--fetch-spread needs --doorbell: the fetch turns it prices are the doorbell's");
  if (v['render-repositories'] !== undefined)
    throw new UsageError('give --fetch-spread or --render-repositories, not both');
  return renderRepositoriesFor(clusters, forgeBudget(forge), v['safety-poll'] / 1000, spread / 1000);
}

function settingsOf(
  v: BudgetValues,
  forge: Forge,
  statusRepositories: number,
  renderRepositories: number,
): TrafficSettings {
  const s = (ms: number) => ms / 1000;
  return {
    hub: {
      intervalSeconds: s(v.interval),
      webhook: v.webhook,
      monitorPeriodSeconds: s(v['cluster-monitor-period']),
      monitorGracePeriodSeconds: s(v['cluster-monitor-grace-period']),
      ...(v['status-record-interval'] ? { statusRecordSeconds: s(v['status-record-interval']) } : {}),
    },
    agent: {
      intervalSeconds: s(v['agent-interval']),
      branchPollSeconds: s(v['branch-poll']),
      heartbeatSeconds: s(v['cluster-lease-duration'] * v['cluster-lease-renew-interval-fraction']),
      statusUpdateFrequencySeconds: s(v['cluster-status-update-frequency']),
      safetyPollSeconds: s(v['safety-poll']),
      ...(v['doorbell-heartbeat'] !== undefined
        ? { doorbellHeartbeatSeconds: s(v['doorbell-heartbeat']) }
        : {}),
      ...(v['push-spread'] !== undefined ? { pushSpreadSeconds: s(v['push-spread']) } : {}),
    },
    dashboards: {
      count: parseWholeNumber(v.dashboards, 'dashboards', 'processes'),
      refreshSeconds: s(v['dashboard-interval']),
    },
    doorbell: v.doorbell,
    statusRepositories,
    renderRepositories,
    // Measured beside the waits: the hub's pass and publish, an agent's fetch and apply.
    work: measuredWork,
    // The doorbell paces by the forge's budget (hub --forge).
    pacingBudget: forgeBudget(forge),
  };
}

function rate(text: string, flag: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0)
    throw new UsageError(`--${flag} must be a number an hour, 0 or more, not '${text}'`);
  return value;
}

/** Counts the clusters (and the keyed ones), templates, status and render repositories the fleet repository registers. */
async function countFleet(v: BudgetValues): Promise<{
  clusters: number;
  keyed: number;
  templates: number;
  statusRepositories: number;
  renderRepositories: number;
}> {
  const source = isRepoUrl(v.repo) ? await mirroredSource(v) : await readSource(v.repo, v.ref);
  const loaded = loadFleet(source.files, { sourceBranch: sourceBranchOf(v.ref) });
  if (!loaded.ok) {
    const first = loaded.errors[0];
    throw new CommandError(
      'SourceDoesNotLoad',
      `${source.description}: the fleet does not load${first ? `: ${formatLoadError(first)}` : ''}`,
      source.description,
    );
  }
  return {
    clusters: loaded.fleet.clusters.length,
    keyed: loaded.fleet.clusters.filter((c) => c.signingKey !== undefined).length,
    templates: loaded.fleet.templates.length,
    statusRepositories: loaded.fleet.config.statusRepositories?.length ?? 0,
    renderRepositories: loaded.fleet.config.renderRepositories?.length ?? 0,
  };
}

async function mirroredSource(v: BudgetValues) {
  const token = await readToken({ env: process.env, ...(v['token-file'] ? { file: v['token-file'] } : {}) });
  const sourceRef = v.ref ?? 'main';
  const mirror = remoteHubRepo({
    url: v.repo,
    cacheDir: defaultMirrorCacheDir(),
    mirrorKey: 'budget',
    ...(token ? { token } : {}),
    sourceRef,
    branchPrefix: defaultBranchPrefix,
  });
  await mirror.refresh();
  return readSource(mirror.gitdir, sourceRef);
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;
// JSON has no Infinity: an unlimited budget is written as this.
const unlimited = 1e9;

function budgetJson(url: string, model: TrafficModel, verdict: BudgetVerdict) {
  const finite = (n: number) => (Number.isFinite(n) ? n : unlimited);
  return {
    forge: verdict.forge,
    repositories: verdict.repositories.map(({ repository: r, budget, within }) => ({
      url: r.role === 'fleet' ? url : r.name,
      role: r.role,
      readsPerSecond: round(r.total.readsPerSecond, 3),
      pushesPerMinute: round(r.total.pushesPerMinute, 2),
      budget: {
        readsPerSecond: finite(budget.readsPerSecond),
        pushesPerMinute: finite(budget.pushesPerMinute),
      },
      within,
    })),
    pushToAppliedSeconds: model.pushToAppliedSeconds,
    notReadyDetectionSeconds: model.notReadyDetectionSeconds,
    pacing: model.pacing,
    work: model.work,
  };
}

function formatBudget(opts: {
  url: string;
  fleet: FleetShape;
  model: TrafficModel;
  verdict: BudgetVerdict;
  settings: TrafficSettings;
}): string {
  const { url, fleet, model, verdict } = opts;
  const limit = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : 'none');
  const shared = (b: ForgeBudget) =>
    b.sharedOperationsPerMinute === undefined
      ? ''
      : ` (${b.sharedOperationsPerMinute} operations/min in all)`;
  const lines = [
    `${url}: ${fleet.clusters} clusters${fleet.keyedClusters ? ` (${fleet.keyedClusters} keyed)` : ''}, ${fleet.templates} templates, forge ${verdict.forge}${shared(forgeBudget(verdict.forge))}`,
    '',
    'repository    role    reads/s  (idle)   budget  pushes/min  (idle)  budget   refs  within',
  ];
  for (const { repository: r, budget, within } of verdict.repositories) {
    lines.push(
      [
        r.name.padEnd(12),
        r.role.padEnd(6),
        r.total.readsPerSecond.toFixed(3).padStart(9),
        `(${r.idle.readsPerSecond.toFixed(3)})`.padStart(9),
        limit(budget.readsPerSecond, 0).padStart(7),
        r.total.pushesPerMinute.toFixed(2).padStart(11),
        `(${r.idle.pushesPerMinute.toFixed(2)})`.padStart(8),
        limit(budget.pushesPerMinute, 0).padStart(7),
        String(r.refs).padStart(6),
        within ? '  yes' : '  OVER',
      ].join(' '),
    );
  }
  const { p50, p99 } = model.pushToAppliedSeconds;
  const { fetchSpreadSeconds, statusLagSeconds, startupSeconds } = model.pacing;
  lines.push(
    '',
    `push → applied: P50 ${p50} s, P99 ${p99} s; a cluster that stops is judged not Ready within ${model.notReadyDetectionSeconds} s`,
    `pacing: the last fetch after a push waits ${fetchSpreadSeconds} s for its turn; a status waits up to ${statusLagSeconds} s for its push slot; a fleet started together is in after ${startupSeconds} s`,
    workLine(fleet.clusters, model),
  );
  if (verdict.advice.length > 0) lines.push('', 'to fit the budget:', ...verdict.advice.map((a) => `  ${a}`));
  for (const w of verdict.warnings) lines.push('', `warning: ${w}`);
  lines.push('', verdict.within ? 'within budget' : 'over budget');
  return lines.join('\n');
}

/** The work in push → applied: one hub renders every cluster and publishes every render repository. */
function workLine(clusters: number, model: TrafficModel): string {
  const { fixedSeconds, hubPassSeconds, renderPublishSeconds } = model.work;
  const renders = model.repositories.filter((r) => r.role === 'render').length;
  const pushes =
    renderPublishSeconds > 0 ? `, its ${renders} render pushes out over ${renderPublishSeconds} s` : '';
  return `work: the hub's pass over ${clusters} clusters ${hubPassSeconds} s${pushes}, and ${fixedSeconds} s whatever the fleet (one hub; measured on 2 cores beside the forge: docs/git-budget.md#the-model)`;
}
