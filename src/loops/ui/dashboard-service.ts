// What `gitfleet ui` serves, computed once per state of the repository: the reading of the hub's
// branches and the status rows are kept until `reload()` (a ref moved), so a page load
// costs no git reads, and a reload reads and parses only the trees and blobs that changed (the
// read's memo, fleet-status-memo.ts). Every document is computed by the functions the CLI uses; this module
// only keeps them and shapes them for the browser.
import type { FleetStatusData } from '../../core/status/fleet-status-data.js';
import type { StatusRow } from '../../core/status/status-table.js';
import { FleetStatusError, readFleetStatus } from '../views/read-fleet-status.js';
import { createFleetStatusMemo } from '../views/fleet-status-memo.js';
import { commitRange, diffCommits, type CommitDiffView } from './commit-diff.js';
import {
  clusterCardsOf,
  matrixOf,
  statusRowsOf,
  type ClusterCard,
  type MatrixView,
} from './dashboard-view.js';
import { openReadRepo } from './read-repo-file.js';
import { templateView, type ReadHistory, type TemplateView } from './template-view.js';
import { templateListOf, type TemplateListView } from './template-list-view.js';
import { templateExplainer, type ExplainOptions } from '../../core/status/explain-template.js';
import type { TemplateExplanation } from '../../core/status/explanation.js';
import { clusterView, type ClusterView } from './cluster-view.js';
import {
  evictionListOf,
  rolloutListOf,
  type EvictionListView,
  type RolloutListView,
} from './fleet-lists-view.js';

/** The overview every page shows on top: which repository, which state, what to run when there is none. */
export interface OverviewView {
  repo: string;
  generation: number;
  /** `noHub`: the repository has no bindings branch; `hint` says what to run. */
  state: 'ok' | 'noHub';
  hint?: string;
  bindingsHead: string | null;
  bindingsTime: string | null;
  sourceCommit: string | null;
  /** cluster → why its status branch does not read. */
  unreadable: Record<string, string>;
  clusters: ClusterCard[];
  /** How many rollouts the bindings branch records (and how many are not Complete), and eviction tasks. */
  counts: { rollouts: number; rolloutsInProgress: number; evictions: number };
}

export interface DashboardServiceOptions {
  /** How the repository is named on the page (a path or a URL without credentials). */
  repo: string;
  /** The local git directory read (the repository itself, or a remote's mirror). */
  gitdir: string;
  /** Overrides the FleetConfig's branchPrefix. */
  branchPrefix?: string;
  /** Returns the up-to-date git directory of a status repository (read-fleet-status.ts); default: local paths only. */
  openStatusRepository?: (url: string) => Promise<string>;
  history: ReadHistory;
  /** The clock the summaries' ages are computed with. */
  now: () => Date;
  /** The explanations' settings (the hub's graceful eviction timeout), as `gitfleet status` takes them. */
  explain?: ExplainOptions;
}

interface Snapshot {
  generation: number;
  /** Undefined when the repository has no hub branches. */
  data?: FleetStatusData;
  rows: StatusRow[];
  overview: OverviewView;
  matrix: MatrixView;
  /** Made on first request, once per state of the repository. */
  templateList?: TemplateListView;
  /** Every template's explanation by refKey (core/status/explain-template.ts), made on first request. */
  explanations?: Map<string, TemplateExplanation>;
  clusterViews: Map<string, ClusterView | undefined>;
}

const maxCachedDiffs = 32;

/** The dashboard's documents over one repository; call reload() when its refs move. */
export class DashboardService {
  private generation = 0;
  /** The generation of `current`. */
  private latest = 0;
  private current: Promise<Snapshot> | undefined;
  private readonly diffs = new Map<string, Promise<CommitDiffView>>();
  /** What one read keeps for the next (by object id): a read after a ref moved costs what changed. */
  private readonly memo = createFleetStatusMemo();

  constructor(private readonly opts: DashboardServiceOptions) {}

  /**
   * Reads the repository again (a ref moved) and resolves with the new generation once the new
   * documents are ready, so a page told of it fetches them at once; until then every document
   * is the last one read (a big fleet takes seconds to read, and the page keeps showing it).
   */
  async reload(): Promise<number> {
    const generation = ++this.generation;
    const reading = this.read(generation);
    await reading;
    // A later reload may have finished first: keep the newest.
    if (this.latest < generation) {
      this.latest = generation;
      this.current = reading;
    }
    return generation;
  }

  async overview(): Promise<OverviewView> {
    return (await this.snapshot()).overview;
  }

  async matrix(): Promise<MatrixView> {
    return (await this.snapshot()).matrix;
  }

  /** Returns the overview of every template: health, sync and the reason for anything not Healthy. */
  async templates(): Promise<TemplateListView> {
    const snapshot = await this.snapshot();
    return this.templateListOf(snapshot);
  }

  async template(key: string): Promise<TemplateView | undefined> {
    const snapshot = await this.snapshot();
    const { data, rows } = snapshot;
    if (!data) return undefined;
    const repo = openReadRepo(this.opts.gitdir);
    const summary = this.templateListOf(snapshot).templates.find((t) => t.key === key);
    const explanation = this.explanationsOf(snapshot).get(key);
    return templateView({
      repo,
      data,
      rows,
      key,
      history: this.opts.history,
      ...(summary ? { summary } : {}),
      ...(explanation ? { explanation } : {}),
    });
  }

  /** Returns the cluster page of `name`, or undefined when the fleet knows no such cluster. */
  async cluster(name: string): Promise<ClusterView | undefined> {
    const snapshot = await this.snapshot();
    const { data, rows } = snapshot;
    if (!data) return undefined;
    if (!snapshot.clusterViews.has(name))
      snapshot.clusterViews.set(
        name,
        clusterView({
          data,
          rows,
          cards: snapshot.overview.clusters,
          name,
          gitdir: this.opts.gitdir,
          explanations: this.explanationsOf(snapshot),
        }),
      );
    return snapshot.clusterViews.get(name);
  }

  async rollouts(): Promise<RolloutListView> {
    const { data } = await this.snapshot();
    return data ? rolloutListOf(data) : { rollouts: [] };
  }

  async evictions(): Promise<EvictionListView> {
    const snapshot = await this.snapshot();
    return snapshot.data
      ? evictionListOf(snapshot.data, this.explanationsOf(snapshot))
      : { evictions: [], judged: {} };
  }

  private templateListOf(snapshot: Snapshot): TemplateListView {
    if (!snapshot.data) return { templates: [] };
    snapshot.templateList ??= templateListOf(snapshot.data, this.explanationsOf(snapshot));
    return snapshot.templateList;
  }

  // One explanation per template, computed once per state of the repository by the function
  // `gitfleet status` calls, so the pages and the command say the same.
  private explanationsOf(snapshot: Snapshot): Map<string, TemplateExplanation> {
    if (!snapshot.data) return new Map();
    if (!snapshot.explanations) {
      const explain = templateExplainer(snapshot.data, this.opts.explain ?? {});
      snapshot.explanations = new Map(snapshot.data.bindings.map((b) => [b.key, explain(b)]));
    }
    return snapshot.explanations;
  }

  /** Returns the diff of `a..b`, or of a commit against its first parent. */
  async commit(spec: string): Promise<CommitDiffView> {
    const repo = openReadRepo(this.opts.gitdir);
    const range = await commitRange(repo, spec);
    if ('error' in range) return { ok: false, errors: [range.error] };
    // Only a diff of two commit ids cannot change; one naming a branch is computed each time.
    const key = `${range.base}..${range.head}`;
    const immutable = /^[0-9a-f]{40}\.\.[0-9a-f]{40}$/.test(key);
    const cached = immutable ? this.diffs.get(key) : undefined;
    if (cached) return cached;
    const diff = diffCommits({ dir: this.opts.gitdir, repo, ...range });
    if (immutable) {
      this.diffs.set(key, diff);
      // A bounded cache: the oldest diff goes first.
      if (this.diffs.size > maxCachedDiffs) this.diffs.delete(this.diffs.keys().next().value!);
      diff.catch(() => this.diffs.delete(key));
    }
    return diff;
  }

  private snapshot(): Promise<Snapshot> {
    this.current ??= this.read(this.generation);
    const reading = this.current;
    reading.catch(() => {
      if (this.current === reading) this.current = undefined;
    });
    return reading;
  }

  private async read(generation: number): Promise<Snapshot> {
    const empty = { clusters: [], templates: [], cells: '' };
    let data: FleetStatusData;
    try {
      data = await readFleetStatus({
        dir: this.opts.gitdir,
        repo: this.opts.repo,
        // The matrix shows what each agent reported, also of templates not placed there, as
        // `status --wide` does.
        objects: 'always',
        memo: this.memo,
        ...(this.opts.branchPrefix !== undefined ? { branchPrefix: this.opts.branchPrefix } : {}),
        ...(this.opts.openStatusRepository ? { openStatusRepository: this.opts.openStatusRepository } : {}),
      });
    } catch (error) {
      if (!(error instanceof FleetStatusError) || error.code !== 'NoBindingsBranch') throw error;
      const overview: OverviewView = {
        repo: this.opts.repo,
        generation,
        state: 'noHub',
        hint: noHubHint(this.opts.repo, error.message),
        bindingsHead: null,
        bindingsTime: null,
        sourceCommit: null,
        unreadable: {},
        clusters: [],
        counts: { rollouts: 0, rolloutsInProgress: 0, evictions: 0 },
      };
      return { generation, rows: [], overview, matrix: empty, clusterViews: new Map() };
    }
    const rows = statusRowsOf(data);
    const overview: OverviewView = {
      repo: this.opts.repo,
      generation,
      state: 'ok',
      bindingsHead: data.bindingsHead,
      bindingsTime: data.bindingsTime ?? null,
      sourceCommit: data.sourceCommit ?? null,
      unreadable: Object.fromEntries(data.unreadable),
      clusters: clusterCardsOf(data, this.opts.now()),
      counts: {
        rollouts: data.rollouts.length,
        rolloutsInProgress: data.rollouts.filter((v) => !('rollout' in v) || v.rollout.phase !== 'Complete')
          .length,
        evictions: data.evictions.length,
      },
    };
    return { generation, data, rows, overview, matrix: matrixOf(data, rows), clusterViews: new Map() };
  }
}

function noHubHint(repo: string, why: string): string {
  return (
    `${why.replace(/: has the hub run\?$/, '')}: the hub has not written this repository yet. ` +
    `Run \`gitfleet hub --repo ${repo} --once\` (or keep \`gitfleet hub --repo ${repo}\` running), ` +
    `then \`gitfleet agent --repo ${repo} --cluster NAME\` beside each member cluster.`
  );
}
