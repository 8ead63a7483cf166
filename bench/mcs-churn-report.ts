// What bench/mcs-churn.ts reports of one coalescing window: the readings taken around the churn,
// reduced to rates per minute, growth and CPU shares, and the side-by-side table of the windows.
import { median, roundTo } from './lib/stats.js';
import type { RepoSize } from './mcs-refs.js';

/** The raw readings of one window's churn. */
export interface WindowReading {
  window: string;
  settleMs: number;
  elapsedMs: number;
  pods: { deleted: number; missed: number };
  /** Commits per branch (full ref name) made during the churn. */
  commits: ReadonlyMap<string, number>;
  sizeBefore: RepoSize;
  sizeAfter: RepoSize;
  hubCpuSeconds: number;
  agentCpuSeconds: Record<string, number>;
  /** The benchmark's own process (the churn's requests). */
  benchCpuSeconds: number;
  /** The durations of the hub's passes that wrote, from its output. */
  hubPassMs: number[];
  /** The durations of each agent's passes that applied or wrote status, from its output. */
  agentPassMs: Record<string, number[]>;
  loadBefore: number[];
  loadAfter: number[];
}

/** One window's figures. */
export type WindowSummary = ReturnType<typeof summarizeWindow>;

const prefix = 'refs/heads/gitfleet/';

/** Returns the window's rates, growth and CPU. */
export function summarizeWindow(
  r: WindowReading,
  fleet: { exporters: readonly string[]; importers: readonly string[] },
) {
  const minutes = r.elapsedMs / 60_000;
  const seconds = r.elapsedMs / 1000;
  const perMinute = (n: number) => roundTo(n / minutes, 1);
  const commitsOf = (ref: string) => r.commits.get(`${prefix}${ref}`) ?? 0;
  const status = Object.fromEntries(fleet.exporters.map((c) => [c, perMinute(commitsOf(`status/${c}`))]));
  const exporterBranches = Object.fromEntries(
    fleet.exporters.map((c) => [c, perMinute(commitsOf(`clusters/${c}`))]),
  );
  const importerRates = fleet.importers.map((c) => perMinute(commitsOf(`clusters/${c}`)));
  const passes = (ms: readonly number[]) => ({
    perMinute: perMinute(ms.length),
    medianMs: ms.length > 0 ? Math.round(median(ms)) : null,
    maxMs: ms.length > 0 ? Math.max(...ms) : null,
  });
  const grew = (key: keyof RepoSize) => r.sizeAfter[key] - r.sizeBefore[key];
  const share = (cpu: number) => ({
    cpuSeconds: roundTo(cpu, 1),
    percentOfOneCore: roundTo((cpu / seconds) * 100, 1),
  });
  return {
    exportCoalesce: r.window,
    minutes: roundTo(minutes, 2),
    settleSeconds: roundTo(r.settleMs / 1000, 1),
    podsDeleted: r.pods.deleted,
    podsPerMinute: perMinute(r.pods.deleted),
    ...(r.pods.missed > 0 ? { deletionsMissed: r.pods.missed } : {}),
    statusCommitsPerMinute: { total: roundTo(sum(Object.values(status)), 1), ...status },
    clusterCommitsPerMinute: {
      exporters: exporterBranches,
      importersTotal: roundTo(sum(importerRates), 1),
      perImporter: {
        mean: roundTo(sum(importerRates) / importerRates.length, 1),
        min: Math.min(...importerRates),
        max: Math.max(...importerRates),
      },
    },
    bindingsCommitsPerMinute: perMinute(commitsOf('bindings')),
    repoGrowth: {
      gitDirBytes: grew('gitDirBytes'),
      gitDirMiBPerMinute: roundTo(grew('gitDirBytes') / 2 ** 20 / minutes, 2),
      looseObjects: grew('looseObjects'),
      looseKiB: grew('looseKiB'),
      packs: grew('packs'),
      packKiB: grew('packKiB'),
      before: r.sizeBefore,
      after: r.sizeAfter,
    },
    hub: { ...share(r.hubCpuSeconds), passes: passes(r.hubPassMs) },
    agents: Object.fromEntries(
      Object.entries(r.agentCpuSeconds).map(([c, cpu]) => [
        c,
        { ...share(cpu), passes: passes(r.agentPassMs[c] ?? []) },
      ]),
    ),
    benchProcess: share(r.benchCpuSeconds),
    loadAverage: { before: r.loadBefore, after: r.loadAfter },
  };
}

/** Returns the windows side by side, one row per figure. */
export function formatChurnTable(windows: readonly WindowSummary[]): string {
  const agentCpu = (w: WindowSummary) =>
    Object.values(w.agents)
      .map((a) => `${a.cpuSeconds}`)
      .join(' / ');
  const rows: [string, (w: WindowSummary) => string][] = [
    ['churn', (w) => `${w.minutes} min, ${w.podsDeleted} Pods deleted`],
    [
      'status commits/min, 3 exporters',
      (w) => {
        const { total, ...each } = w.statusCommitsPerMinute;
        return `${total} (${Object.values(each).join(' / ')})`;
      },
    ],
    ['cluster commits/min, exporters', (w) => Object.values(w.clusterCommitsPerMinute.exporters).join(' / ')],
    [
      'cluster commits/min, importers',
      (w) => {
        const { perImporter: p, importersTotal } = w.clusterCommitsPerMinute;
        return `${importersTotal} (each ${p.mean}, ${p.min}–${p.max})`;
      },
    ],
    ['bindings commits/min', (w) => `${w.bindingsCommitsPerMinute}`],
    [
      'repo growth (.git)',
      (w) =>
        `+${roundTo(w.repoGrowth.gitDirBytes / 2 ** 20, 1)} MiB (${w.repoGrowth.gitDirMiBPerMinute} MiB/min)`,
    ],
    [
      '  loose objects, packs',
      (w) =>
        `+${w.repoGrowth.looseObjects} (+${w.repoGrowth.looseKiB} KiB), +${w.repoGrowth.packs} (+${w.repoGrowth.packKiB} KiB)`,
    ],
    ['hub CPU', (w) => `${w.hub.cpuSeconds} s (${w.hub.percentOfOneCore}% of a core)`],
    [
      '  hub passes/min, median',
      (w) => `${w.hub.passes.perMinute}, ${w.hub.passes.medianMs} ms (max ${w.hub.passes.maxMs})`,
    ],
    ['agents CPU, s each', (w) => agentCpu(w)],
    [
      '  agent passes/min, median',
      (w) =>
        Object.values(w.agents)
          .map((a) => `${a.passes.perMinute}, ${a.passes.medianMs} ms`)
          .join(' / '),
    ],
    ['load average before → after', (w) => `${w.loadAverage.before[0]} → ${w.loadAverage.after[0]}`],
  ];
  const head = ['', ...windows.map((w) => `coalesce ${w.exportCoalesce}`)];
  const body = rows.map(([name, cell]) => [name, ...windows.map(cell)]);
  const widths = head.map((_, i) => Math.max(...[head, ...body].map((row) => row[i]!.length)));
  return [head, ...body]
    .map((row) => `  ${row.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`.trimEnd())
    .join('\n');
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
