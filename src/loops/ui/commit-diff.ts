// The commit page's diff: a source commit against its first parent, or a range `base..head`
// (a pull request's two sides), computed by previewDiff (loops/preview/preview-diff.ts), the one
// function `gitfleet diff` prints, so the page and the command cannot disagree. Its file diffs
// redact every Secret value (core/review/redact-secret-pair.ts).
import { previewDiff, PreviewDiffError, type PreviewDiff } from '../preview/preview-diff.js';
import { readCommitInfo, resolveCommit, type ReadRepo } from './read-repo-file.js';

/** The commit page's document: the preview, with each side's subject, or why there is none. */
export type CommitDiffView =
  ({ ok: true; subjects: { base: string; head: string } } & PreviewDiff) | { ok: false; errors: string[] };

/** Returns the base and head a commit page asks for: `a..b`, or a commit and its first parent. */
export async function commitRange(
  repo: ReadRepo,
  spec: string,
): Promise<{ base: string; head: string } | { error: string }> {
  const range = spec.split('..');
  if (range.length === 2 && range[0] && range[1]) return { base: range[0], head: range[1] };
  const resolved = await resolveCommit(repo, spec);
  if ('error' in resolved) return resolved;
  const head = resolved.oid;
  const { parent } = await readCommitInfo(repo, head);
  if (parent === undefined)
    return { error: `${head.slice(0, 12)}: the repository's first commit has no parent to compare with` };
  return { base: parent, head };
}

/** Returns the preview of base → head, or every error of a side that does not load. */
export async function diffCommits(opts: {
  dir: string;
  repo: ReadRepo;
  base: string;
  head: string;
}): Promise<CommitDiffView> {
  let preview: PreviewDiff;
  try {
    preview = await previewDiff({ dir: opts.dir, base: opts.base, head: opts.head });
  } catch (error) {
    if (!(error instanceof PreviewDiffError)) throw error;
    return {
      ok: false,
      errors: error.failures.flatMap((f) => f.errors.map((e) => `${f.side} '${f.revision}': ${e}`)),
    };
  }
  const subjects = {
    base: (await readCommitInfo(opts.repo, preview.base.commit)).subject,
    head: (await readCommitInfo(opts.repo, preview.head.commit)).subject,
  };
  return { ok: true, subjects, ...preview };
}
