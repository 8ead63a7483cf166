// What `gitfleet ui` serves, computed once per state of the repository: the reading of the hub's
// branches and the status rows are kept until `invalidate()` (a ref moved), so a page load
// costs no git reads. Every document is computed by the functions the CLI uses; this module
// only keeps them and shapes them for the browser.
import { readGitSource } from '../../adapters/source/read-git-commit.js';
import { loadFleet } from '../../core/load/load-fleet.js';
import type { StatusRow } from '../../core/status/status-table.js';
import { commitRange, diffCommits, type CommitDiffView } from './commit-diff.js';
import {
  clusterCardsOf,
  matrixOf,
  statusRowsOf,
  type ClusterCard,
  type MatrixView,
} from './dashboard-view.js';
import { openReadRepo, readHubBranches, type HubBranches } from './read-hub-branches.js';
import { templateView, type ReadHistory, type TemplateView } from './template-view.js';

/** The overview every page shows on top: which repository, which state, what to run when there is none. */
export interface OverviewView {
  repo: string;
  generation: number;
  /** `noHub`: the repository has no bindings branch; `hint` says what to run. */
  state: 'ok' | 'noHub';
  hint?: string;
  bindingsHead: string | null;
  sourceCommit: string | null;
  unreadable: string[];
  clusters: ClusterCard[];
}

export interface DashboardServiceOptions {
  /** How the repository is named on the page (a path or a URL without credentials). */
  repo: string;
  /** The local git directory read (the repository itself, or a remote's mirror). */
  gitdir: string;
  branchPrefix: string;
  history: ReadHistory;
}

interface Snapshot {
  generation: number;
  hub: HubBranches;
  rows: StatusRow[];
  overview: OverviewView;
  matrix: MatrixView;
}

/** The dashboard's documents over one repository; call invalidate() when its refs move. */
export class DashboardService {
  private generation = 0;
  private current: Promise<Snapshot> | undefined;
  private readonly diffs = new Map<string, Promise<CommitDiffView>>();

  constructor(private readonly opts: DashboardServiceOptions) {}

  /** Forgets what was read; the next document reads the repository again. Returns the new generation. */
  invalidate(): number {
    this.generation++;
    this.current = undefined;
    return this.generation;
  }

  /** Returns the generation of the state last read (bumped by invalidate). */
  get currentGeneration(): number {
    return this.generation;
  }

  async overview(): Promise<OverviewView> {
    return (await this.snapshot()).overview;
  }

  async matrix(): Promise<MatrixView> {
    return (await this.snapshot()).matrix;
  }

  async template(key: string): Promise<TemplateView | undefined> {
    const { hub, rows } = await this.snapshot();
    const repo = openReadRepo(this.opts.gitdir);
    return templateView({ repo, hub, rows, key, history: this.opts.history });
  }

  /** Returns the diff of `a..b`, or of a commit against its first parent. */
  async commit(spec: string): Promise<CommitDiffView> {
    const repo = openReadRepo(this.opts.gitdir);
    const range = await commitRange(repo, spec);
    if ('error' in range) return { ok: false, errors: [range.error] };
    const key = `${range.base}..${range.head}`;
    let diff = this.diffs.get(key);
    if (diff === undefined || !/^[0-9a-f]{40}\.\.[0-9a-f]{40}$/.test(key)) {
      diff = diffCommits({ dir: this.opts.gitdir, repo, ...range });
      // Only a diff of two commit ids cannot change; one of branch names is computed each time.
      if (/^[0-9a-f]{40}\.\.[0-9a-f]{40}$/.test(key)) this.diffs.set(key, diff);
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
    const repo = openReadRepo(this.opts.gitdir);
    const hub = await readHubBranches(repo, this.opts.branchPrefix);
    const rows = statusRowsOf(hub);
    const labels = await this.templateLabels(hub.sourceCommit);
    const overview: OverviewView = {
      repo: this.opts.repo,
      generation,
      state: hub.bindingsHead === null ? 'noHub' : 'ok',
      ...(hub.bindingsHead === null ? { hint: noHubHint(this.opts.repo, this.opts.branchPrefix) } : {}),
      bindingsHead: hub.bindingsHead,
      sourceCommit: hub.sourceCommit,
      unreadable: hub.unreadable,
      clusters: clusterCardsOf(hub, rows),
    };
    const matrix = matrixOf(hub, rows, (key) => labels.get(key) ?? {});
    return { generation, hub, rows, overview, matrix };
  }

  // The templates' labels (for the label filter) from the source commit the hub rendered last;
  // none when it cannot be read, so the page still shows everything else.
  private async templateLabels(source: string | null): Promise<Map<string, Record<string, string>>> {
    if (source === null) return new Map();
    try {
      const loaded = loadFleet((await readGitSource({ dir: this.opts.gitdir, ref: source })).files);
      if (!loaded.ok) return new Map();
      return new Map(loaded.fleet.templates.map((t) => [t.key, { ...(t.object.metadata.labels ?? {}) }]));
    } catch {
      return new Map();
    }
  }
}

function noHubHint(repo: string, prefix: string): string {
  return (
    `no branch ${prefix}bindings in ${repo}: the hub has not written this repository yet. ` +
    `Run \`gitfleet hub --repo ${repo} --once\` (or keep \`gitfleet hub --repo ${repo}\` running), ` +
    `then \`gitfleet agent --repo ${repo} --cluster NAME\` beside each member cluster.`
  );
}
