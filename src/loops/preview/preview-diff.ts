// The preview of a change, as `gitfleet diff` prints it and the dashboard's commit page shows it
// (docs/review.md): both revisions rendered, their per-cluster diff, how the head side's rollouts
// reach the clusters, and the verdict line a reviewer reads first. One function, so the CLI and
// the dashboard can never show two different previews of the same change.
import { InterpreterSession } from '../../adapters/lua/interpreter-session.js';
import { formatLoadError, loadFleet } from '../../core/load/load-fleet.js';
import type { Fleet } from '../../core/model/fleet.js';
import { freshSnapshot } from '../../core/model/snapshot.js';
import { GitfleetError } from '../../core/model/gitfleet-error.js';
import { escapeText } from '../../core/model/quote-text.js';
import { deletionsAllowedBy } from '../../core/publish/commit-trailers.js';
import type { RenderResult } from '../../core/render/render-fleet.js';
import { diffRenders } from '../../core/review/diff-renders.js';
import { diffSources, withSourceChanges } from '../../core/review/diff-sources.js';
import { formatDiffMarkdown } from '../../core/review/format-diff-markdown.js';
import { formatDiffText } from '../../core/review/format-diff-text.js';
import { judgeVerdict, type Verdict } from '../../core/review/judge-verdict.js';
import { explainPreview, type PreviewWhy } from '../../core/review/explain-preview.js';
import {
  previewRollouts,
  type RolloutHolds,
  type RolloutPreview,
} from '../../core/review/preview-rollouts.js';
import type { RolloutState } from '../../core/model/rollout.js';
import { GitSourceError, readGitSource } from '../../adapters/source/read-git-commit.js';
import { describeRecordedState, readRecordedState } from './read-recorded-state.js';
import { blobIdsOf, renderAsHub, withBranchFiles, type HubRender } from './render-as-hub.js';
import { renderOffLoop } from '../source/render-off-loop.js';
import { loadWithSources, type TemplateSourceRenderer } from '../source/load-with-sources.js';
import { readReportedStatusAt } from './read-reported-status-at.js';
import { gitSourceTree, type SourceTree } from '../../adapters/render-tools/source-tree.js';

export interface PreviewDiffOptions {
  /** A local git repository holding both revisions (bare or not). */
  dir: string;
  /** Any git revision naming a commit (gitrevisions(7)): the side compared from. */
  base: string;
  /** The side compared to. */
  head: string;
  /** 'auto' (default): render as the hub would when the repository holds its branches; 'none': a first pass. */
  hubState?: 'auto' | 'none';
  /** The time a hub pass would run at, for its failover and rollout decisions (default: now). */
  now?: () => Date;
  /** Renders each side's template sources, as the hub does (docs/sources.md); absent: a side with one does not load. */
  sourceRenderer?: TemplateSourceRenderer<SourceTree>;
}

/** The preview of a change from base to head. */
export interface PreviewDiff {
  /** Each side: the revision as given, the commit it names, and that commit's subject line. */
  base: { revision: string; commit: string; subject: string };
  head: { revision: string; commit: string; subject: string };
  /** Which recorded hub state both sides were rendered with. */
  state: { used: boolean; bindingsCommit?: string; recordedAt?: string; note: string };
  diff: ReturnType<typeof diffRenders>;
  /** How the head side's rollout strategies reach the clusters (empty lists without strategies). */
  rollout: RolloutPreview;
  /** Why the change leaves templates placed nowhere, off a cluster, or held (core/review/explain-preview.ts). */
  why: PreviewWhy[];
  /** The line a reviewer reads first and its counts (core/review/judge-verdict.ts). */
  verdict: Verdict;
  /** The same as `gitfleet diff --format markdown` and `--format text` print (the markdown carries the plaintext-Secret warnings too). */
  markdown: string;
  text: string;
  /** The head side's Secrets committed in plaintext, as loud warnings (docs/secrets.md). */
  plaintextSecrets: string[];
}

/** One side that could not be read or does not load, with every error. */
export interface SideFailure {
  side: 'base' | 'head';
  revision: string;
  commit?: string;
  errors: string[];
}

/** A side of the preview cannot be read (no such revision, not a repository) or does not load. */
export class PreviewDiffError extends GitfleetError<'SideDoesNotLoad'> {
  readonly failures: SideFailure[];
  constructor(failures: SideFailure[]) {
    super(failures.map((f) => `${failureTitle(f)}: ${f.errors.join('; ')}`).join('; '), {
      code: 'SideDoesNotLoad',
      terminal: true,
    });
    this.failures = failures;
  }
}

/** Returns `base 'main~1' (1a2b3c4d5e6f) does not load`. */
export function failureTitle(f: SideFailure): string {
  return `${f.side} '${escapeText(f.revision)}'${f.commit ? ` (${f.commit.slice(0, 12)})` : ''} does not load`;
}

interface LoadedSide {
  gitdir: string;
  revision: string;
  commit: string;
  message: string;
  fleet: Fleet;
  /** Its Secrets committed in plaintext (core/secrets/find-plaintext-secrets.ts), as warnings. */
  plaintextSecrets: string[];
}

/** Returns the preview of the change from base to head; throws PreviewDiffError naming each side that fails. */
export async function previewDiff(opts: PreviewDiffOptions): Promise<PreviewDiff> {
  const sides = await Promise.all([loadSide(opts, 'base', opts.base), loadSide(opts, 'head', opts.head)]);
  const failures = sides.filter((s): s is SideFailure => 'errors' in s);
  if (failures.length > 0) throw new PreviewDiffError(failures);
  const [base, head] = sides as [LoadedSide, LoadedSide];
  const prefix = head.fleet.config.branchPrefix;
  const recorded = opts.hubState === 'none' ? undefined : await readRecordedState(head.gitdir, prefix);
  if (!recorded) {
    const state = {
      used: false,
      note:
        opts.hubState === 'none'
          ? 'no hub state (--no-hub-state): rendered as a first pass'
          : describeRecordedState(undefined, prefix),
    };
    const baseRender = await renderOffLoop(freshSnapshot(base.fleet));
    const headRender = await renderOffLoop(freshSnapshot(head.fleet));
    return assemble({ base, head, baseRender, headRender, state, rollouts: undefined });
  }
  const now = (opts.now ?? (() => new Date()))();
  const baseSide = await renderAsHub({ recorded, fleet: base.fleet, commit: base.commit, now });
  const headSide = await renderAsHub({ recorded, fleet: head.fleet, commit: head.commit, now });
  // The hub rendered the base commit last: its cluster branches are the base side, so the diff
  // is what the next pass changes on them (a rollout's held clusters, status that moved since).
  const onBranches = recorded.bindings?.source === base.commit;
  const baseRender = onBranches
    ? await withBranchFiles(recorded, baseSide.render, baseSide.current)
    : baseSide.render;
  const state = {
    used: true,
    ...(recorded.bindings
      ? { bindingsCommit: recorded.bindings.commit, recordedAt: recorded.bindings.recordedAt }
      : {}),
    note:
      `${describeRecordedState(recorded, prefix)}; base side: ` +
      (onBranches
        ? 'the cluster branches as the hub last wrote them for it'
        : 'rendered on the same state (the hub last rendered another commit)'),
  };
  return assemble({
    base,
    head,
    baseRender,
    headRender: headSide.render,
    state,
    current: headSide.current,
    rollouts: headSide.rollouts,
  });
}

function assemble(input: {
  base: LoadedSide;
  head: LoadedSide;
  baseRender: RenderResult;
  headRender: RenderResult;
  state: PreviewDiff['state'];
  current?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** With the hub's state: the head before the rollout stage held anything, and its decisions. */
  rollouts: HubRender['rollouts'];
}): PreviewDiff {
  const { base, head, baseRender, headRender, state } = input;
  const rendered = diffRenders({ base: baseRender, head: headRender });
  const diff = withSourceChanges(
    rendered,
    diffSources({
      base: base.fleet.sourceProvenance,
      head: head.fleet.sourceProvenance,
      diff: rendered,
      baseRender,
      headRender,
    }),
  );
  // Every step, held or not: the head as it will be once the rollouts pass, and which clusters
  // the merge's own pass holds (docs/rollout.md#before-the-merge-gitfleet-diff).
  const rollout = previewRollouts({
    strategies: head.fleet.rolloutStrategies ?? [],
    templates: head.fleet.templates,
    clusters: head.fleet.clusters,
    base: baseRender,
    head: input.rollouts?.unheld ?? headRender,
    ...(input.rollouts ? { holds: heldClusters(input.rollouts.states) } : {}),
  });
  const { current } = input;
  const verdict = judgeVerdict({
    diff,
    base: baseRender,
    head: guardedHead(headRender, current),
    ...(current ? { current } : {}),
    guards: head.fleet.config.guards,
    deletionsAllowed: deletionsAllowedBy(head.message),
    reach: rollout,
  });
  const why = explainPreview({
    base: baseRender,
    head: headRender,
    rollout,
    clusters: head.fleet.clusters.map((c) => c.name),
  });
  return {
    base: { revision: base.revision, commit: base.commit, subject: subjectOf(base.message) },
    head: { revision: head.revision, commit: head.commit, subject: subjectOf(head.message) },
    state,
    diff,
    rollout,
    why,
    verdict,
    ...formatPreview({ base, head, diff, rollout, why, verdict, state }),
    plaintextSecrets: head.plaintextSecrets,
  };
}

// With the branches' files (blob ids), the guard judges the head render as blob ids too.
function guardedHead(
  headRender: RenderResult,
  current: ReadonlyMap<string, ReadonlyMap<string, string>> | undefined,
): RenderResult {
  if (!current) return headRender;
  return {
    ...headRender,
    clusters: new Map([...headRender.clusters].map(([c, o]) => [c, { ...o, files: blobIdsOf(o.files) }])),
  };
}

// The preview as `gitfleet diff --format markdown` and `--format text` print it.
function formatPreview(
  preview: Pick<PreviewDiff, 'diff' | 'rollout' | 'why' | 'verdict' | 'state'> & {
    base: LoadedSide;
    head: LoadedSide;
  },
): Pick<PreviewDiff, 'markdown' | 'text'> {
  const { diff, rollout, why, verdict, state, head } = preview;
  const rolloutShown = rollout.strategies.length > 0 || rollout.atOnce.length > 0;
  const markdown = formatDiffMarkdown(diff, {
    title: `gitfleet diff ${sideLabel(preview.base)} → ${sideLabel(head)}`,
    ...(rolloutShown ? { rollout } : {}),
    verdict: verdict.text,
    state: state.note,
    why,
    warnings: head.plaintextSecrets,
  });
  const text = formatDiffText(diff, rollout, { verdict: verdict.text, state: state.note, why });
  return { markdown, text };
}

// Strategy label → the clusters its rollout holds after the pass (nothing once it is complete).
function heldClusters(states: ReadonlyMap<string, RolloutState>): RolloutHolds {
  const holds = new Map<string, Set<string>>();
  for (const [label, state] of states) {
    if (state.phase === 'Complete') continue;
    holds.set(label, new Set(state.clusters.filter((c) => c.state === 'Held').map((c) => c.name)));
  }
  return holds;
}

// A commit message's first line, as `git log --format=%s` shows it.
function subjectOf(message: string): string {
  return message.split('\n', 1)[0]!.trim();
}

// `main` (1a2b3c4), or only the short id when the revision is a commit id.
function sideLabel(side: LoadedSide): string {
  const short = `\`${side.commit.slice(0, 7)}\``;
  return side.commit.startsWith(side.revision.toLowerCase()) ? short : `\`${side.revision}\` (${short})`;
}

async function loadSide(
  opts: PreviewDiffOptions,
  side: 'base' | 'head',
  revision: string,
): Promise<LoadedSide | SideFailure> {
  const { dir } = opts;
  let read;
  try {
    read = await readGitSource({ dir, ref: revision });
  } catch (error) {
    if (!(error instanceof GitSourceError)) throw error;
    return { side, revision, errors: [error.message] };
  }
  const failed = (errors: string[]): SideFailure => ({ side, revision, commit: read.commit, errors });
  const { gitdir, commit } = read;
  const loaded = await loadWithSources({
    files: read.files,
    load: (files, rendered) => loadFleet(files, rendered ? { rendered } : {}),
    renderer: opts.sourceRenderer,
    tree: () => gitSourceTree({ gitdir, cache: {} }, commit),
    // As the hub reads them: the clusters' reports give Helm's .Capabilities per cluster.
    ...(opts.hubState === 'none'
      ? {}
      : { clusterStatus: (fleet: Fleet) => readReportedStatusAt(gitdir, fleet) }),
  });
  if (!loaded.ok) return failed(loaded.errors.map(formatLoadError));
  const { fleet, problems } = await new InterpreterSession().attach(loaded.fleet);
  if (problems.length > 0) return failed(problems);
  const plaintextSecrets = loaded.warnings.filter((w) => w.code === 'PlaintextSecret').map(formatLoadError);
  return {
    gitdir: read.gitdir,
    revision,
    commit: read.commit,
    message: read.message,
    fleet,
    plaintextSecrets,
  };
}
