// `gitfleet diff <repo> <base-ref> <head-ref> [--format text|markdown|json]`: renders both refs
// straight from git objects and prints what changes on each cluster, and, when the head side has
// rollout strategies, which clusters the change reaches first (core/review/preview-rollouts.ts).
//
// Exit codes (exit-codes.ts): 0 nothing changes, 6 something does, 2 usage error, 7 a side could
// not be read or does not load (every error printed, naming the ref).
import { InterpreterSession } from '../../adapters/lua/interpreter-session.js';
import { escapeText } from '../../core/model/quote-text.js';
import type { CommandSpec } from '../command-line.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { formatLoadError, loadFleet } from '../../core/load/load-fleet.js';
import type { Fleet } from '../../core/model/fleet.js';
import { freshSnapshot } from '../../core/model/snapshot.js';
import { renderFleet, type RenderResult } from '../../core/render/render-fleet.js';
import { diffRenders } from '../../core/review/diff-renders.js';
import { formatDiffMarkdown } from '../../core/review/format-diff-markdown.js';
import { formatDiffText } from '../../core/review/format-diff-text.js';
import { previewRollouts } from '../../core/review/preview-rollouts.js';
import { GitSourceError, readGitSource } from '../../adapters/source/read-git-commit.js';
import type { Io } from '../io.js';
import { printError } from '../print-error.js';

export type DiffFormat = 'text' | 'markdown' | 'json';

export interface DiffOptions {
  repo: string;
  base: string;
  head: string;
  format: DiffFormat;
}

/** `gitfleet diff`: its command line. */
export const diffSpec = {
  name: 'diff',
  summary: 'per-cluster diff of the rendered output of two refs, read straight from git objects',
  positionals: [
    { name: '<repo>', help: 'a local git repository holding both refs (bare or not)' },
    { name: '<base-ref>', help: 'the ref to compare from (a branch, tag or commit id)' },
    { name: '<head-ref>', help: 'the ref to compare to' },
  ],
  flags: {
    format: {
      type: 'string',
      choices: ['text', 'markdown', 'json'],
      default: 'text',
      help: 'a unified diff, a pull-request comment, or the whole structure as JSON',
    },
  },
} as const satisfies CommandSpec;

/** `gitfleet diff`: parses its command line and prints the diff; an error is a side that cannot be read. */
export const diffCommand = defineCommand({
  spec: diffSpec,
  errorExit: 'sideDoesNotLoad',
  run: ({ values, positionals }, io) =>
    runDiff(
      { repo: positionals[0]!, base: positionals[1]!, head: positionals[2]!, format: values.format },
      io,
    ),
});

type Side =
  | { side: 'base' | 'head'; ref: string; ok: true; commit: string; fleet: Fleet; result: RenderResult }
  | { side: 'base' | 'head'; ref: string; ok: false; commit?: string; errors: string[] };

/** Renders both refs and prints their per-cluster diff; returns `ok`, `changed` or `sideDoesNotLoad`. */
export async function runDiff(opts: DiffOptions, io: Io): Promise<number> {
  const base = await renderRef(opts.repo, 'base', opts.base);
  const head = await renderRef(opts.repo, 'head', opts.head);
  if (!base.ok || !head.ok) {
    reportFailures([base, head], opts, io);
    return exitCodes.sideDoesNotLoad;
  }
  const diff = diffRenders({ base: base.result, head: head.result });
  const rollout = previewRollouts({
    strategies: head.fleet.rolloutStrategies ?? [],
    templates: head.fleet.templates,
    clusters: head.fleet.clusters,
    base: base.result,
    head: head.result,
  });
  const rolloutShown = rollout.strategies.length > 0 || rollout.atOnce.length > 0;
  if (opts.format === 'json') {
    const sides = {
      base: { ref: opts.base, commit: base.commit },
      head: { ref: opts.head, commit: head.commit },
    };
    io.out(JSON.stringify({ ...sides, ...diff, ...(rolloutShown ? { rollout } : {}) }, null, 2));
  } else if (opts.format === 'markdown') {
    const title = `gitfleet diff ${refLabel(opts.base, base.commit)} → ${refLabel(opts.head, head.commit)}`;
    io.out(formatDiffMarkdown(diff, { title, rollout }).replace(/\n$/, ''));
  } else {
    const text = formatDiffText(diff, rollout);
    if (text !== '') io.out(text.replace(/\n$/, ''));
  }
  return diff.changed ? exitCodes.changed : exitCodes.ok;
}

// `main` (1a2b3c4), or only the short id when the ref is a commit id.
function refLabel(ref: string, commit: string): string {
  const short = `\`${commit.slice(0, 7)}\``;
  return commit.startsWith(ref.toLowerCase()) ? short : `\`${ref}\` (${short})`;
}

async function renderRef(repo: string, side: 'base' | 'head', ref: string): Promise<Side> {
  let read;
  try {
    read = await readGitSource({ dir: repo, ref });
  } catch (error) {
    if (!(error instanceof GitSourceError)) throw error;
    return { side, ref, ok: false, errors: [error.message] };
  }
  const loaded = loadFleet(read.files);
  if (!loaded.ok)
    return { side, ref, ok: false, commit: read.commit, errors: loaded.errors.map(formatLoadError) };
  const { fleet, problems } = await new InterpreterSession().attach(loaded.fleet);
  if (problems.length > 0) return { side, ref, ok: false, commit: read.commit, errors: problems };
  return { side, ref, ok: true, commit: read.commit, fleet, result: renderFleet(freshSnapshot(fleet)) };
}

// Errors go to stderr, and markdown also says it on stdout, so a pull-request comment learns
// why there is no diff; with --format json the failures are one error object on stdout.
function reportFailures(sides: Side[], opts: DiffOptions, io: Io): void {
  const failed = sides.filter((s): s is Extract<Side, { ok: false }> => !s.ok);
  const title = (s: (typeof failed)[number]) =>
    `${s.side} '${escapeText(String(s.ref))}'${s.commit ? ` (${s.commit.slice(0, 12)})` : ''} does not load`;
  if (opts.format === 'json') {
    const errors = failed.map((s) => ({
      side: s.side,
      ref: s.ref,
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
