// Which repository and commits `gitfleet diff` compares, and the one HEAD it refuses
// (docs/review.md "Which HEAD"). `gitfleet diff <bare repo> main HEAD` run from a working clone
// reads like "my clone's HEAD against main", but HEAD is read in <repo>, the bare repository,
// whose HEAD is a branch there: an unpushed commit in the clone would silently give "no change".
//
// The rule: a revision that reads HEAD (HEAD, @, HEAD~1, @{1}, @{u}) is refused as a usage
// error when <repo> is a bare repository and the command runs inside another repository (the
// working directory, or a directory above it, belongs to a repository whose HEAD is not
// <repo>'s: another clone, or a linked work tree of <repo> itself). Naming the branch or the commit says it explicitly; run from <repo> itself, from
// outside any repository, or with a clone (not bare) as <repo>, HEAD is that repository's own.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  findEnclosingHeadDir,
  findHeadDir,
  findLocalGitdir,
} from '../../adapters/source/find-local-gitdir.js';
import { revisionOrigin } from '../../adapters/source/revision-origin.js';
import { escapeText } from '../../core/model/quote-text.js';
import { UsageError } from '../usage-error.js';

/** One side as the output names it: as given, as resolved, the commit and its subject. */
export interface ComparedSide {
  ref: string;
  resolved: string | null;
  commit: string;
  abbrev: string;
  subject: string;
}

/** Throws a UsageError when a revision's HEAD is ambiguous by the rule above. */
export function refuseAmbiguousHead(opts: { repo: string; revisions: readonly string[]; cwd: string }): void {
  const gitdir = findLocalGitdir(opts.repo);
  if (gitdir === undefined || real(gitdir) !== real(opts.repo)) return; // not bare (or not a repository)
  // A linked work tree of <repo> shares its refs but has a HEAD of its own: also another HEAD.
  const around = findEnclosingHeadDir(opts.cwd);
  if (around === undefined || real(around) === real(gitdir)) return;
  for (const text of opts.revisions) {
    const origin = revisionOrigin(gitdir, text);
    if (!origin.readsHead) continue;
    const commit = origin.headOid === undefined ? 'no commit yet' : origin.headOid.slice(0, 7);
    const at =
      origin.ref === 'HEAD' ? `its detached HEAD (${commit})` : `its HEAD, ${origin.ref} (${commit})`;
    throw new UsageError(
      `revision '${escapeText(text)}' is ambiguous: ${opts.repo} is a bare repository and this runs inside another repository (${around}), so '${escapeText(text)}' would read ${at} in ${opts.repo}, not the HEAD of your working clone. Say which commit you mean: a branch of ${opts.repo} (e.g. main), or a commit id pushed there (git rev-parse HEAD in your clone); or pass your clone as <repo> to compare its commits`,
    );
  }
}

/** Returns one side as the output names it (`repo` as given: a linked work tree's HEAD is its own). */
export function comparedSide(
  repo: string,
  side: { revision: string; commit: string; subject: string },
): ComparedSide {
  return {
    ref: side.revision,
    resolved: revisionOrigin(findHeadDir(repo) ?? repo, side.revision).ref ?? null,
    commit: side.commit,
    abbrev: side.commit.slice(0, 7),
    subject: side.subject,
  };
}

/** Returns the line naming the repository and both sides: `repository /r.git; base 'main' (refs/heads/main) 1a2b3c4 "fleet"; head …`. */
export function comparedLine(repository: string, base: ComparedSide, head: ComparedSide): string {
  const side = (name: string, s: ComparedSide): string => {
    const resolved = s.resolved === null || s.resolved === s.ref ? '' : ` (${s.resolved})`;
    return `${name} '${escapeText(s.ref)}'${resolved} ${s.abbrev} "${escapeText(s.subject)}"`;
  };
  return `compared: repository ${escapeText(repository)}; ${side('base', base)}; ${side('head', head)}`;
}

/** Returns the absolute git directory of `repo` (as the sides were read). */
export function repositoryOf(repo: string): string {
  return resolve(findLocalGitdir(repo) ?? repo);
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
