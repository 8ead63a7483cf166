// `gitfleet status --repo <path|url>`: the fleet at a glance. By default one line per cluster
// (Ready, rendered and applied commit, how far behind, object health, last report) and one per
// template (clusters placed, replicas, health rollup); `--wide` gives the template × cluster
// matrix instead (placed rows only unless `--all`). Then why workloads moved (eviction tasks,
// the monitor's verdicts) and every rollout the bindings branch records, as before.
//
// The reading is loops/views/read-fleet-status.ts, the views are core/status (fleet-summary.ts,
// status-table.ts), the same ones the dashboard shows. `--watch` prints again whenever a gitfleet
// branch moves (status-watch.ts). docs/status.md says what every column means.
import { statusSpec } from './status-spec.js';
import yaml from 'js-yaml';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { defaultMirrorCacheDir } from '../mirror-cache-dir.js';
import { CommandError } from '../command-error.js';
import type { LabelSelector } from '../../core/model/selectors.js';
import type { FleetStatusData } from '../../core/status/fleet-status-data.js';
import { filterFleetStatus } from '../../core/status/filter-fleet-status.js';
import { clusterNamesOf, summarizeClusters } from '../../core/status/fleet-summary.js';
import { explainTemplateSummaries } from '../../core/status/explain-template.js';
import { formatExplanations } from '../../core/status/format-explanations.js';
import { formatClusterSummaries, formatTemplateSummaries } from '../../core/status/format-fleet-summary.js';
import {
  formatFailoverSections,
  formatStatusText,
  type StatusFailover,
} from '../../core/status/format-status-text.js';
import { parseSelectorText } from '../../core/status/parse-selector-text.js';
import { formatFleetHeader } from '../../core/status/format-fleet-header.js';
import { fleetStatusTable } from '../../core/status/status-table.js';
import type { RolloutView } from '../../core/rollout/rollout-view.js';
import { formatRolloutSection } from '../../core/rollout/format-rollout-text.js';
import { formatQuotaSection } from '../../core/status/format-quota-section.js';
import { formatRefusedDeletions, refusedDeletionsOf } from '../../core/status/refused-deletions.js';
import { readFleetStatus } from '../../loops/views/read-fleet-status.js';
import { statusRepositoryOpener } from './open-status-repository.js';
import { createFleetStatusMemo } from '../../loops/views/fleet-status-memo.js';
import type { Io } from '../io.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';
import { readToken } from '../../adapters/remote/read-token.js';
import { remoteHubRepo } from '../../adapters/remote/remote-hub-repo.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { watchStatus, type StatusSnapshot } from './status-watch.js';
import { commandLog } from '../command-log.js';
import type { LogLevel } from '../../loops/runtime/logger.js';

/** `gitfleet status`: parses its command line and prints the status. */
export const statusCommand = defineCommand({
  spec: statusSpec,
  run: ({ values }, io) =>
    runStatus(
      {
        repo: values.repo,
        output: values.output,
        wide: values.wide,
        all: values.all,
        watch: values.watch,
        intervalMs: values.interval,
        ...(values.cluster !== undefined ? { clusters: listOf(values.cluster) } : {}),
        ...(values.template !== undefined ? { templates: listOf(values.template) } : {}),
        ...(values.selector !== undefined ? { selector: values.selector } : {}),
        ...(values['branch-prefix'] !== undefined ? { branchPrefix: values['branch-prefix'] } : {}),
        ...(values['token-file'] !== undefined ? { tokenFile: values['token-file'] } : {}),
        logLevel: values['log-level'],
      },
      io,
      { now: () => new Date(), terminal: process.stdout.isTTY === true },
    ),
});

export interface StatusOptions {
  repo: string;
  /** Only these clusters. */
  clusters?: readonly string[];
  /** Only the templates these patterns name (core/status/match-template.ts). */
  templates?: readonly string[];
  /** kubectl-style label selector text over the templates' labels. */
  selector?: string;
  /** The template × cluster matrix instead of the summaries. */
  wide?: boolean;
  /** With `wide`: the clusters a template is not placed on too. */
  all?: boolean;
  watch?: boolean;
  /** With `watch` on a URL: the time between fetches. */
  intervalMs?: number;
  /** Overrides the FleetConfig's branchPrefix. */
  branchPrefix?: string;
  output: 'text' | 'json' | 'yaml';
  /** For URLs: a file holding the token (else $GITFLEET_GIT_TOKEN). */
  tokenFile?: string;
  /** With `watch`: the least severe lines logged on stderr (default info). */
  logLevel?: LogLevel;
}

export interface StatusDeps {
  /** The clock report ages are measured by. */
  now: () => Date;
  /** Whether stdout is a terminal: `--watch` then clears the screen before each snapshot. */
  terminal?: boolean;
}

/** Prints the status of a fleet repository (again at every change with --watch); returns the exit code. */
export async function runStatus(opts: StatusOptions, io: Io, deps: StatusDeps): Promise<number> {
  const selector = parseSelector(opts.selector);
  if (opts.all && !opts.wide) throw new UsageError('--all goes with --wide (the matrix)');
  const source = await statusSource(opts);
  // With --watch, each snapshot reads only what changed since the one before.
  const memo = createFleetStatusMemo();
  const openStatusRepository = statusRepositoryOpener({
    ...(opts.tokenFile ? { tokenFile: opts.tokenFile } : {}),
    ...(source.branchPrefix !== undefined ? { branchPrefix: source.branchPrefix } : {}),
    mirrorKey: 'status',
  });
  const snapshot = async (): Promise<StatusSnapshot> => {
    const data = await readFleetStatus({
      dir: source.dir,
      repo: opts.repo,
      // The views below take the statuses the hub aggregated where they are current; the
      // explanation of the templates named (--template) reads their agents' records whole.
      objects: opts.templates ? 'always' : 'fresh',
      templateLabels: selector !== undefined,
      memo,
      openStatusRepository,
      ...(source.branchPrefix !== undefined ? { branchPrefix: source.branchPrefix } : {}),
    });
    return {
      text: formatSnapshot(filtered(data, opts, selector), opts, deps.now()),
      branchPrefix: data.branchPrefix,
    };
  };
  if (!opts.watch) {
    io.out((await snapshot()).text);
    return exitCodes.ok;
  }
  await watchStatus({
    dir: source.dir,
    ...(source.refresh ? { refresh: source.refresh, intervalMs: opts.intervalMs ?? 10_000 } : {}),
    snapshot,
    io,
    log: commandLog(io, 'gitfleet status', opts.logLevel ? { level: opts.logLevel } : {}).log,
    separator: deps.terminal ? 'clear' : opts.output === 'json' ? 'none' : 'line',
  });
  return exitCodes.ok;
}

function parseSelector(text: string | undefined): LabelSelector | undefined {
  if (text === undefined) return undefined;
  const parsed = parseSelectorText(text);
  if (!parsed.ok) throw new UsageError(parsed.message);
  return parsed.selector;
}

function listOf(text: string): string[] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) throw new UsageError(`"${text}": name at least one`);
  return items;
}

// The filters, after checking that every cluster named is one the fleet knows: a typo would
// otherwise print an empty fleet that looks like a healthy one.
function filtered(
  data: FleetStatusData,
  opts: StatusOptions,
  selector: LabelSelector | undefined,
): FleetStatusData {
  if (opts.clusters) {
    const known = new Set(clusterNamesOf(data));
    const unknown = opts.clusters.filter((c) => !known.has(c));
    if (unknown.length > 0)
      throw new UsageError(
        `--cluster ${unknown.join(', ')}: no such cluster in ${opts.repo} (known: ${[...known].join(', ') || 'none'})`,
      );
  }
  if (selector && data.templateLabelsError !== undefined)
    throw new CommandError(
      'SourceDoesNotLoad',
      `${data.templateLabelsError}: -l cannot read the templates' labels`,
      opts.repo,
    );
  return filterFleetStatus(data, {
    ...(opts.clusters ? { clusters: opts.clusters } : {}),
    ...(opts.templates ? { templates: opts.templates } : {}),
    ...(selector ? { selector } : {}),
  });
}

/** Returns one snapshot as the output format asks. */
function formatSnapshot(data: FleetStatusData, opts: StatusOptions, now: Date): string {
  const failover: StatusFailover = {
    evictions: data.evictions,
    judged: [...data.judged].map(([cluster, verdict]) => `${cluster}=${verdict}`),
  };
  const rolloutsKey = rolloutsJson(data.rollouts);
  const refused = refusedDeletionsOf(data.hubRefusals ?? [], data.reports);
  const refusedKey = refused.length > 0 ? { refusedDeletions: refused } : {};
  const quotasKey = data.quotas && data.quotas.length > 0 ? { quotas: data.quotas } : {};
  const sections = [
    formatRolloutSection(data.rollouts),
    formatRefusedDeletions(refused),
    formatQuotaSection(data.quotas ?? []),
  ].filter((s) => s);
  const header = formatFleetHeader(data, now);
  if (opts.wide) {
    const rows = fleetStatusTable(data, { placedOnly: !opts.all });
    if (opts.output === 'text')
      return `${header}\n\n${formatStatusText(rows, failover, sections.join('\n\n'))}`;
    return serialize({ rows, ...failover, ...rolloutsKey, ...refusedKey, ...quotasKey }, opts);
  }
  const clusters = summarizeClusters(data, now);
  // With --template, every cluster of each template says why (docs/status.md#why).
  const templates = explainTemplateSummaries(data, { allClusters: opts.templates !== undefined });
  if (opts.output !== 'text') {
    const head = {
      bindingsHead: data.bindingsHead,
      ...(data.bindingsTime !== undefined ? { bindingsTime: data.bindingsTime } : {}),
      ...(data.sourceCommit !== undefined ? { sourceCommit: data.sourceCommit } : {}),
      ...(data.sourceRef !== undefined ? { sourceRef: data.sourceRef } : {}),
      ...(data.sourceSubject !== undefined ? { sourceSubject: data.sourceSubject } : {}),
    };
    return serialize(
      { ...head, clusters, templates, ...failover, ...rolloutsKey, ...refusedKey, ...quotasKey },
      opts,
    );
  }
  return [
    header,
    formatClusterSummaries(clusters),
    formatTemplateSummaries(templates),
    ...(opts.templates ? [formatExplanations(templates)].filter((t) => t) : []),
    ...formatFailoverSections(failover),
    ...sections,
  ].join('\n\n');
}

// With --watch, JSON is one document per line so a reader can take snapshots line by line.
function serialize(value: object, opts: StatusOptions): string {
  if (opts.output === 'yaml') return yaml.dump(value, { noRefs: true, lineWidth: -1 }).trimEnd();
  return opts.watch ? JSON.stringify(value) : JSON.stringify(value, null, 2);
}

// The rollouts key is there only when the bindings branch records a rollout, so the output of a
// fleet without rollouts is what it was before they existed.
function rolloutsJson(views: readonly RolloutView[]): { rollouts?: readonly RolloutView[] } {
  return views.length > 0 ? { rollouts: views } : {};
}

interface StatusSource {
  /** The local repository, or the remote's fetched mirror. */
  dir: string;
  branchPrefix: string | undefined;
  /** For a remote: fetch it again. */
  refresh?: () => Promise<void>;
}

// A remote repository is read through the same fetched mirror the hub and agents use. The
// mirror holds only gitfleet's branches (its HEAD is unborn), so its prefix is the one given.
async function statusSource(opts: StatusOptions): Promise<StatusSource> {
  if (!isRepoUrl(opts.repo)) return { dir: opts.repo, branchPrefix: opts.branchPrefix };
  const token = await readToken({ env: process.env, ...(opts.tokenFile ? { file: opts.tokenFile } : {}) });
  const branchPrefix = opts.branchPrefix ?? defaultBranchPrefix;
  const mirror = remoteHubRepo({
    url: opts.repo,
    cacheDir: defaultMirrorCacheDir(),
    mirrorKey: 'status',
    ...(token ? { token } : {}),
    sourceRef: 'main',
    branchPrefix,
  });
  await mirror.refresh();
  return { dir: mirror.gitdir, branchPrefix, refresh: () => mirror.refresh() };
}
