// What `gitfleet cluster join` and `cluster leave` share: the fleet repository they propose a
// change to (a local clone), the source branch the change is for, the review branch it goes on
// (never the source branch), its author, and the commit itself (docs/onboarding.md).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../usage-error.js';
import { loadFleet, formatLoadError } from '../../core/load/load-fleet.js';
import type { Fleet } from '../../core/model/fleet.js';
import type { SourceFile } from '../../core/load/source-file.js';
import { readGitSource } from '../../adapters/source/read-git-commit.js';
import { readGitConfig } from '../../adapters/source/resolve-revision.js';
import { readCommit } from '../../adapters/git/read-typed-object.js';
import { commitToNewBranch, type FileEdit } from '../../adapters/git/commit-to-new-branch.js';
import type { GitSignature } from '../../adapters/git/make-commit.js';
import { isValidRefName } from '../../adapters/git/ref-name.js';
import { readRef } from '../../adapters/git/read-ref.js';
import { checkClusterName } from '../../core/onboard/cluster-registration.js';
import { OnboardError } from './onboard-error.js';

/** The fleet repository at the head of the source branch. */
export interface FleetAtSource {
  gitdir: string;
  commit: string;
  tree: string;
  files: SourceFile[];
  fleet: Fleet;
}

/** Returns the fleet at the source branch's head; a fleet that does not load is refused (fix it first). */
export async function readFleetAtSource(repo: string, sourceRef: string): Promise<FleetAtSource> {
  const { commit, files, gitdir } = await readGitSource({ dir: repo, ref: sourceRef });
  const { tree } = await readCommit({ gitdir }, commit);
  const loaded = loadFleet(files, { sourceBranch: sourceRef });
  if (!loaded.ok) {
    throw new OnboardError(
      'FleetDoesNotLoad',
      `${repo}@${sourceRef} (${commit.slice(0, 12)}): the fleet does not load, so no cluster can be added or removed before it is fixed:\n${loaded.errors.map(formatLoadError).join('\n')}`,
    );
  }
  return { gitdir, commit, tree: tree!, files, fleet: loaded.fleet };
}

/** Throws a usage error when `name` cannot name a cluster (a DNS-1123 label of at most 48 characters). */
export function assertClusterName(name: string): void {
  const problem = checkClusterName(name);
  if (problem) throw new UsageError(`cluster name '${name}': ${problem}`);
}

/** Returns the review branch's full ref: the one given, or `<verb>/<cluster>`; never the source branch. */
export function reviewBranchOf(given: string | undefined, fallback: string, sourceRef: string): string {
  const short = (given ?? fallback).replace(/^refs\/heads\//, '');
  if (short === sourceRef.replace(/^refs\/heads\//, ''))
    throw new UsageError(
      `--branch ${short}: the source branch; the change goes on a branch of its own for review`,
    );
  const ref = `refs/heads/${short}`;
  if (!isValidRefName(ref)) throw new UsageError(`--branch '${short}': not a valid branch name`);
  return ref;
}

/** Throws when the review branch exists already: checked before anything is written. */
export async function assertNewBranch(at: FleetAtSource, branch: string): Promise<void> {
  const existing = await readRef(at.gitdir, branch);
  if (existing !== null)
    throw new UsageError(
      `--branch ${branch.replace(/^refs\/heads\//, '')}: exists already (at ${existing.slice(0, 12)}); delete it or name another with --branch`,
    );
}

/**
 * Throws PathDirty when the work tree holds `path` otherwise than the source branch does (an
 * untracked file where join writes, a local edit of the file leave changes): the person's work
 * would collide with the review branch. A bare repository has no work tree to check.
 */
export function assertCleanPath(repo: string, at: FleetAtSource, path: string): void {
  if (resolve(repo) === resolve(at.gitdir)) return;
  const committed = at.files.find((f) => f.path === path)?.content;
  let present: string | undefined;
  try {
    present = readFileSync(join(repo, path), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (present === undefined || present === committed) return;
  const how = committed === undefined ? 'untracked' : 'edited';
  throw new OnboardError(
    'PathDirty',
    `${path}: ${how} in the work tree of ${repo} (it differs from the source branch); commit, move or remove it first`,
  );
}

/** Returns the commit's author: --author, git's environment, or the repository's user.* config. */
export function authorOf(
  given: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  gitdir: string,
  now: Date,
): GitSignature {
  const at = { time: Math.floor(now.getTime() / 1000), tzOffsetMinutes: 0 };
  if (given !== undefined) {
    const m = /^\s*([^<>]+?)\s*<([^<>\s]+)>\s*$/.exec(given);
    if (!m) throw new UsageError(`--author '${given}': not 'NAME <EMAIL>'`);
    return { name: m[1]!, email: m[2]!, ...at };
  }
  const config = readGitConfig({ commondir: gitdir });
  const name = env['GIT_AUTHOR_NAME'] ?? config.get('user.name')?.at(-1);
  const email = env['GIT_AUTHOR_EMAIL'] ?? config.get('user.email')?.at(-1);
  if (!name || !email)
    throw new UsageError(
      "no author for the commit: pass --author 'NAME <EMAIL>' (or set GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL, or the repository's user.name and user.email)",
    );
  return { name, email, ...at };
}

/** Returns the new commit on the review branch: the edits on top of the source branch's head. */
export function proposeChange(
  at: FleetAtSource,
  input: { branch: string; edits: readonly FileEdit[]; author: GitSignature; message: string },
): Promise<string> {
  return commitToNewBranch({
    gitdir: at.gitdir,
    parent: at.commit,
    parentTree: at.tree,
    edits: input.edits,
    branch: input.branch,
    author: input.author,
    message: input.message,
  });
}
