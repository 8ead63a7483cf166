// `gitfleet diff <repo> <base> <head> [--format text|markdown|json] [--no-hub-state]`: renders
// both revisions (any git revision naming a commit) straight from git objects, the way the hub
// would on its recorded state when the repository holds the hub's branches (previewDiff,
// loops/preview/preview-diff.ts; docs/review.md), and prints the verdict line, then what changes
// on each cluster, and, when the head side has rollout strategies, which clusters the change
// reaches first (core/review/preview-rollouts.ts).
//
// Exit codes (exit-codes.ts): 0 nothing changes, 6 something does, 2 usage error, 7 a side could
// not be read or does not load (every error printed, naming the ref).
import { diffSpec } from './diff-spec.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import {
  failureTitle,
  previewDiff,
  PreviewDiffError,
  type PreviewDiff,
  type SideFailure,
} from '../../loops/preview/preview-diff.js';
import type { Io } from '../io.js';
import { reviewSourceSignatures, type SignatureReview } from '../../loops/source/review-source-signatures.js';
import { printError } from '../print-error.js';
import { comparedLine, comparedSide, refuseAmbiguousHead, repositoryOf } from './diff-sides.js';
import { sourceRendererOf } from '../source-renderer-of.js';
import type { SourceRenderer } from '../../adapters/render-tools/source-renderer.js';

export type DiffFormat = 'text' | 'markdown' | 'json';

export interface DiffOptions {
  repo: string;
  base: string;
  head: string;
  format: DiffFormat;
  /** 'auto': as the hub would, with its recorded state when the repository holds it; 'none': a first pass. */
  hubState?: 'auto' | 'none';
  /** The time the hub pass previewed would run at (default: now). */
  now?: () => Date;
  /** The directory the command runs in, for the ambiguous-HEAD rule (default: the process's). */
  cwd?: string;
  /** Renders both sides' template sources (docs/sources.md); absent: a side with one does not load. */
  sources?: SourceRenderer;
}

/** `gitfleet diff`: parses its command line and prints the diff; an error is a side that cannot be read. */
export const diffCommand = defineCommand({
  spec: diffSpec,
  errorExit: 'sideDoesNotLoad',
  run: ({ values, positionals }, io) =>
    runDiff(
      {
        repo: positionals[0]!,
        base: positionals[1]!,
        head: positionals[2]!,
        format: values.format,
        hubState: values['no-hub-state'] ? 'none' : 'auto',
        sources: sourceRendererOf(values),
      },
      io,
    ),
});

/** Renders both revisions and prints their per-cluster diff; returns `ok`, `changed` or `sideDoesNotLoad`. */
export async function runDiff(opts: DiffOptions, io: Io): Promise<number> {
  refuseAmbiguousHead({ repo: opts.repo, revisions: [opts.base, opts.head], cwd: opts.cwd ?? process.cwd() });
  let preview: PreviewDiff;
  try {
    preview = await previewDiff({
      dir: opts.repo,
      base: opts.base,
      head: opts.head,
      ...(opts.hubState ? { hubState: opts.hubState } : {}),
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.sources ? { sourceRenderer: opts.sources } : {}),
    });
  } catch (error) {
    if (!(error instanceof PreviewDiffError)) throw error;
    reportFailures(error.failures, opts, io);
    return exitCodes.sideDoesNotLoad;
  }
  // A Secret committed in plaintext is said loudly on stderr (and in the JSON report).
  for (const line of preview.plaintextSecrets) io.err(`warning: ${line}`);
  const repository = repositoryOf(opts.repo);
  const base = comparedSide(opts.repo, preview.base);
  const head = comparedSide(opts.repo, preview.head);
  const compared = comparedLine(repository, base, head);
  // What the hub's source verification will say of the head once merged (base: the last verified commit).
  const review = await reviewSourceSignatures({
    dir: opts.repo,
    head: head.commit,
    base: base.commit,
    at: opts.now?.() ?? new Date(),
  });
  printPreview(preview, { format: opts.format, repository, base, head, compared, review }, io);
  return preview.diff.changed ? exitCodes.changed : exitCodes.ok;
}

/** Prints the preview in the format asked for, with the compared sides and the signatures' review. */
function printPreview(
  preview: PreviewDiff,
  shown: {
    format: DiffFormat;
    repository: ReturnType<typeof repositoryOf>;
    base: ReturnType<typeof comparedSide>;
    head: ReturnType<typeof comparedSide>;
    compared: string;
    review: SignatureReview;
  },
  io: Io,
): void {
  const { review, compared } = shown;
  // Said in text and markdown only when the fleet verifies its sources (JSON always says it).
  const signatures = review.verifying ? [`${review.severity}: ${review.message}`] : [];
  if (shown.format === 'json') {
    const { diff, rollout, why } = preview;
    const rolloutShown = rollout.strategies.length > 0 || rollout.atOnce.length > 0;
    const report = {
      repository: shown.repository,
      base: shown.base,
      head: shown.head,
      verdict: preview.verdict,
      state: preview.state,
      signatures: review,
      ...(preview.plaintextSecrets.length > 0 ? { plaintextSecrets: preview.plaintextSecrets } : {}),
      ...diff,
    };
    const extra = { ...(rolloutShown ? { rollout } : {}), ...(why.length > 0 ? { why } : {}) };
    io.out(JSON.stringify({ ...report, ...extra }, null, 2));
  } else if (shown.format === 'markdown') {
    const markdown = preview.markdown.replace(/\n$/, '');
    io.out(
      withLine(
        markdown,
        markdownLineAt(markdown),
        '',
        `_${compared}_`,
        ...signatures.flatMap((line) => ['', `_Signatures: ${line}_`]),
      ),
    );
  } else if (preview.text !== '') {
    const said = signatures.map((line) => `# signatures: ${line}`);
    io.out(withLine(preview.text.replace(/\n$/, ''), 2, `# ${compared}`, ...said));
  }
}

// The compared line goes after the verdict and the state lines, which stay first (docs/review.md).
function withLine(text: string, at: number, ...added: string[]): string {
  const lines = text.split('\n');
  lines.splice(Math.min(at, lines.length), 0, ...added);
  return lines.join('\n');
}

// In markdown, as a paragraph after the state line under the heading (after the heading without one).
function markdownLineAt(markdown: string): number {
  const lines = markdown.split('\n');
  const state = lines.findIndex((l) => l.startsWith('_State:'));
  const heading = lines.findIndex((l) => l.startsWith('#'));
  return state >= 0 ? state + 1 : heading + 1;
}

// Errors go to stderr, and markdown also says it on stdout, so a pull-request comment learns
// why there is no diff; with --format json the failures are one error object on stdout.
function reportFailures(failed: readonly SideFailure[], opts: DiffOptions, io: Io): void {
  const title = failureTitle;
  if (opts.format === 'json') {
    const errors = failed.map((s) => ({
      side: s.side,
      ref: s.revision,
      commit: s.commit ?? null,
      errors: s.errors,
    }));
    const message = failed.map((s) => `${title(s)}: ${s.errors.join('; ')}`).join('; ');
    printError(io, { json: true, text: message, report: { code: 'LoadFailed', message, errors } });
    return;
  }
  for (const s of failed) {
    io.err(`gitfleet diff: ${title(s)}:`);
    for (const line of s.errors) io.err(`  ${line}`);
  }
  if (opts.format === 'markdown') {
    const lines = ['### gitfleet diff', '', 'The rendered diff could not be computed:', ''];
    for (const s of failed) {
      lines.push(
        `**${title(s)}:**`,
        '',
        '```text',
        ...s.errors.map((e) => e.replace(/```/g, "'''")),
        '```',
        '',
      );
    }
    io.out(lines.join('\n').replace(/\n$/, ''));
  }
}
