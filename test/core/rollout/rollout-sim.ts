// A small stand-in for the hub around the pure rollout planner (core/rollout/plan-rollouts.ts),
// for its table tests: each cluster branch runs one version of the strategy's objects, each
// source commit renders one version, and a pass builds the planner's input by hand (views,
// heads, reports, records, approvals, an injected `now`), then does what the hub does with the
// answer (a moved cluster's branch gets the render, a held one keeps its version, a rolled back
// one gets its last good commit's version) and keeps the records for the next pass.
import assert from 'node:assert/strict';
import type { HealthStatus } from '../../../src/core/health/health.js';
import type { Cluster } from '../../../src/core/model/cluster.js';
import type { ObjectRef } from '../../../src/core/model/object-ref.js';
import type { RolloutState, RolloutStrategy } from '../../../src/core/model/rollout.js';
import { strategyLabel } from '../../../src/core/model/rollout.js';
import {
  planRollouts,
  rolloutDir,
  type ClusterView,
  type RolloutInput,
  type RolloutOutput,
} from '../../../src/core/rollout/plan-rollouts.js';
import { parseRolloutRecord, rolloutRecordPath } from '../../../src/core/rollout/rollout-record.js';
import type { AgentReport, ObjectStatusRecord } from '../../../src/core/status/status-branch.js';
import { aCluster } from '../builders.js';
import { aStep, aStrategy } from './rollout-fixtures.js';

export const webRef: ObjectRef = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'shop',
  name: 'web',
};
export const webPath = 'shop/Deployment.apps/web.yaml';
export const t0 = Date.parse('2026-12-01T15:00:00.000Z');
export const iso = (ms: number) => new Date(ms).toISOString();

/** canary first, then every env=prod cluster (eu, us). */
export function canaryThenProd(
  extra: Partial<RolloutStrategy> = {},
  second: Partial<RolloutStrategy['steps'][number]> = {},
) {
  return aStrategy('web', {
    steps: [
      aStep({ clusters: { clusterNames: ['canary'] } }),
      aStep({ clusters: { labelSelector: { matchLabels: { env: 'prod' } } }, ...second }),
    ],
    ...extra,
  });
}

export const prod = (name: string) => aCluster(name, { labels: { env: 'prod' } });

interface Branch {
  head: string;
  version: string;
}

export class RolloutSim {
  now = t0;
  source = 'src-0';
  lastSource: string | null = 'src-0';
  /** Source commit → the version of the objects it renders. */
  readonly versions = new Map<string, string>([['src-0', 'v0']]);
  /** Cluster-branch commit → the version it holds. */
  readonly commits = new Map<string, string>();
  readonly branches = new Map<string, Branch>();
  readonly reports = new Map<string, AgentReport>();
  recorded = new Map<string, string>();
  /** Newest first, as the hub reads them. */
  approvals: { commit: string; approvals: string[] }[] = [{ commit: 'src-0', approvals: [] }];
  /** The clusters the objects are placed on (default: every cluster). */
  placed: Set<string>;
  last: RolloutOutput | undefined;
  /** The label of the strategy the sim follows (the first one given). */
  readonly label: string;
  private readonly recordPath: string;
  lastInput: RolloutInput | undefined;
  private commitCount = 0;
  private readonly heads = new Map<string, number>();

  constructor(
    public strategies: RolloutStrategy[] = [canaryThenProd()],
    public clusters: Cluster[] = [aCluster('canary'), prod('eu'), prod('us')],
  ) {
    this.label = strategies[0] ? strategyLabel(strategies[0]) : 'shop/web';
    this.recordPath = strategies[0] ? rolloutRecordPath(strategies[0]) : '.gitfleet/rollouts/shop/web.yaml';
    this.placed = new Set(clusters.map((c) => c.name));
    for (const c of clusters) this.newHead(c.name, 'v0');
  }

  /** A new source commit rendering `version` (by default the same as before), with approval trailers. */
  commit(version?: string, approvals: string[] = []): string {
    const sha = `src-${++this.commitCount}`;
    this.versions.set(sha, version ?? this.versions.get(this.source)!);
    this.source = sha;
    this.approvals = [{ commit: sha, approvals }, ...this.approvals];
    return sha;
  }

  /** A cluster registered from now on, its branch at `version` (or absent). */
  addCluster(cluster: Cluster, version?: string): void {
    this.clusters = [...this.clusters, cluster];
    this.placed.add(cluster.name);
    if (version) this.newHead(cluster.name, version);
  }

  /** The cluster's agent has applied `commit` (default its branch's head) with the object in this health. */
  report(
    cluster: string,
    health: HealthStatus,
    opts: {
      commit?: string | null;
      healthMessage?: string;
      applied?: boolean;
      objects?: ObjectStatusRecord[];
    } = {},
  ): void {
    const web: ObjectStatusRecord = {
      ref: webRef,
      applied: opts.applied ?? true,
      health,
      ...(opts.healthMessage ? { healthMessage: opts.healthMessage } : {}),
    };
    this.reports.set(cluster, {
      cluster,
      appliedCommit: opts.commit === undefined ? this.head(cluster)! : opts.commit,
      objects: opts.objects ?? [web],
    });
  }

  /** Every cluster listed reports its head Healthy. */
  healthy(...clusters: string[]): void {
    for (const c of clusters) this.report(c, 'Healthy');
  }

  head(cluster: string): string | undefined {
    return this.branches.get(cluster)?.head;
  }

  /** The version a cluster's branch holds. */
  runs(cluster: string): string | undefined {
    return this.branches.get(cluster)?.version;
  }

  /** The input of the next pass, as the hub would build it. */
  input(at = this.now): RolloutInput {
    const rendered = this.versions.get(this.source)!;
    const view = new Map<string, ClusterView>();
    for (const name of [...this.placed].sort()) {
      view.set(name, {
        pending: this.runs(name) !== rendered,
        digest: `d-${rendered}`,
        paths: [webPath],
      });
    }
    return {
      now: new Date(at),
      sourceCommit: this.source,
      lastSource: this.lastSource,
      strategies: this.strategies,
      clusters: this.clusters,
      views: new Map(this.strategies.map((s) => [strategyLabel(s), view])),
      newObjects: new Map(),
      clusterHeads: new Map([...this.branches].map(([name, b]) => [name, b.head])),
      reports: this.reports,
      recorded: this.recorded,
      approvals: this.approvals,
    };
  }

  /** Runs one pass at `at` (ms), applies its actions to the branches and keeps its records. */
  pass(at = this.now): RolloutOutput {
    this.now = at;
    const input = this.input(at);
    const out = planRollouts(input);
    if (out.wakeAt)
      assert.ok(out.wakeAt.getTime() > at, `wakeAt ${out.wakeAt.toISOString()} is after now ${iso(at)}`);
    for (const path of out.files.keys()) assert.ok(path.startsWith(rolloutDir), path);
    const rendered = this.versions.get(this.source)!;
    for (const name of this.placed) {
      const action = out.actions.get(this.label)?.get(name) ?? { type: 'move' };
      if (action.type === 'hold') continue;
      const version = action.type === 'move' ? rendered : this.commits.get(action.lastGood);
      assert.ok(
        version,
        `${name}: rollback to a known commit ${action.type === 'rollback' ? action.lastGood : ''}`,
      );
      if (this.runs(name) !== version) this.newHead(name, version);
    }
    this.recorded = new Map(out.files);
    this.lastSource = this.source;
    this.last = out;
    this.lastInput = input;
    return out;
  }

  /** The rollout after the last pass (its record, parsed back, must equal the state). */
  state(): RolloutState | undefined {
    const out = this.last;
    assert.ok(out, 'a pass ran');
    const state = out.states.get(this.label);
    const text = this.recorded.get(this.recordPath);
    assert.deepEqual(
      text === undefined ? undefined : parseRolloutRecord(text),
      state,
      'the record holds the state',
    );
    return state;
  }

  /** cluster → `step state` after the last pass. */
  where(): Record<string, string> {
    return Object.fromEntries((this.state()?.clusters ?? []).map((c) => [c.name, `${c.step} ${c.state}`]));
  }

  /** The decisions of the last pass as `Type: message`. */
  decisions(): string[] {
    return this.last!.decisions.map((d) => `${d.type}: ${d.message}`);
  }

  private newHead(cluster: string, version: string): void {
    const n = (this.heads.get(cluster) ?? -1) + 1;
    this.heads.set(cluster, n);
    const head = `${cluster}-${n}`;
    this.commits.set(head, version);
    this.branches.set(cluster, { head, version });
  }
}
