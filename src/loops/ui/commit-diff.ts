// The commit page's diff: a source commit against its first parent, or a range `base..head`,
// rendered and compared by the same functions `gitfleet diff` uses (core/review/diff-renders.ts,
// whose file diffs redact every Secret value, and format-diff-text.ts for the unified text).
import git from 'isomorphic-git';
import { InterpreterSession } from '../../adapters/lua/interpreter-session.js';
import { GitSourceError, readGitSource } from '../../adapters/source/read-git-commit.js';
import { formatLoadError, loadFleet } from '../../core/load/load-fleet.js';
import { freshSnapshot } from '../../core/model/snapshot.js';
import { renderFleet, type RenderResult } from '../../core/render/render-fleet.js';
import { diffRenders, type RenderDiff } from '../../core/review/diff-renders.js';
import { formatDiffText } from '../../core/review/format-diff-text.js';
import type { ReadRepo } from './read-hub-branches.js';

/** The commit page's document. */
export type CommitDiffView =
  | { ok: true; base: SideView; head: SideView; diff: RenderDiff; text: string }
  | { ok: false; errors: string[] };

export interface SideView {
  rev: string;
  commit: string;
  subject: string;
}

/** Returns the base and head a commit page asks for: `a..b`, or a commit and its first parent. */
export async function commitRange(
  repo: ReadRepo,
  spec: string,
): Promise<{ base: string; head: string } | { error: string }> {
  const range = spec.split('..');
  if (range.length === 2 && range[0] && range[1]) return { base: range[0], head: range[1] };
  const head = await resolveCommit(repo, spec);
  if (head === undefined) return { error: `'${spec}': names no commit` };
  const { commit } = await git.readCommit({ ...repo, oid: head });
  const parent = commit.parent[0];
  if (parent === undefined)
    return { error: `${head.slice(0, 12)}: the first commit has no parent to compare with` };
  return { base: parent, head };
}

/** Renders both sides and returns their per-cluster diff, or why a side does not load. */
export async function diffCommits(opts: {
  dir: string;
  repo: ReadRepo;
  base: string;
  head: string;
}): Promise<CommitDiffView> {
  const base = await renderSide(opts, opts.base);
  const head = await renderSide(opts, opts.head);
  if (!base.ok || !head.ok)
    return { ok: false, errors: [...(base.ok ? [] : base.errors), ...(head.ok ? [] : head.errors)] };
  const diff = diffRenders({ base: base.result, head: head.result });
  return { ok: true, base: base.side, head: head.side, diff, text: formatDiffText(diff) };
}

type Rendered = { ok: true; side: SideView; result: RenderResult } | { ok: false; errors: string[] };

async function renderSide(opts: { dir: string; repo: ReadRepo }, rev: string): Promise<Rendered> {
  let read;
  try {
    read = await readGitSource({ dir: opts.dir, ref: rev });
  } catch (error) {
    if (!(error instanceof GitSourceError)) throw error;
    return { ok: false, errors: [error.message] };
  }
  const loaded = loadFleet(read.files);
  if (!loaded.ok) return { ok: false, errors: loaded.errors.map((e) => `${rev}: ${formatLoadError(e)}`) };
  const { fleet, problems } = await new InterpreterSession().attach(loaded.fleet);
  if (problems.length > 0) return { ok: false, errors: problems };
  const subject = await subjectOf(opts.repo, read.commit);
  return { ok: true, side: { rev, commit: read.commit, subject }, result: renderFleet(freshSnapshot(fleet)) };
}

async function subjectOf(repo: ReadRepo, oid: string): Promise<string> {
  const { commit } = await git.readCommit({ ...repo, oid });
  return commit.message.split('\n', 1)[0] ?? '';
}

async function resolveCommit(repo: ReadRepo, rev: string): Promise<string | undefined> {
  for (const ref of [rev, `refs/heads/${rev}`, `refs/tags/${rev}`]) {
    try {
      return await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref });
    } catch {
      // try the next form
    }
  }
  if (/^[0-9a-f]{4,40}$/i.test(rev)) {
    try {
      return await git.expandOid({ ...repo, oid: rev.toLowerCase() });
    } catch {
      return undefined;
    }
  }
  return undefined;
}
