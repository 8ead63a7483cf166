// Resolves any git revision that names one commit (gitrevisions(7); the forms are listed in
// core/model/parse-revision.ts) to that commit's id, reading refs, packed refs, reflogs and
// objects of a local repository, as `git rev-parse --verify '<rev>^{commit}'` does. A revision
// that names nothing is a GitSourceError saying what was tried.
import * as nodeFs from 'node:fs';
import {
  describedAbbrev,
  parseRevision,
  refCandidates,
  type RevisionBase,
  type RevisionStep,
} from '../../core/model/parse-revision.js';
import { escapeText } from '../../core/model/quote-text.js';
import { GitSourceError, type GitSourceRepo } from './git-source-error.js';
import { readGitObjectNow } from '../git/read-git-object.js';
import { parseCommit } from '../git/parse-commit.js';
import { isGitfleetError } from '../../core/model/gitfleet-error.js';
import { openRefStore, readReflog, resolveRefName, symbolicTarget, type RefStore } from './read-refs.js';
import { findYoungestMatching, listRefTips } from './search-commit-messages.js';
import { objectsStartingWith } from './objects-starting-with.js';

/** A parsed object: what the resolver needs of a commit or a tag. */
export type RevObject =
  | { type: 'commit'; oid: string; parents: string[]; message: string; time: number }
  | { type: 'tag'; oid: string; target: string }
  | { type: 'tree' | 'blob'; oid: string };

type CommitObject = Extract<RevObject, { type: 'commit' }>;

/** Returns the commit a revision names; throws a GitSourceError naming the revision, the repository and what was tried. */
export async function resolveRevision(repo: GitSourceRepo, text: string): Promise<string> {
  const parsed = parseRevision(text);
  if (!parsed.ok) throw fail(repo, text, 'RefNotFound', `names no commit (${parsed.reason})`);
  const ctx: Resolving = { repo, text, refs: openRefStore(repo.headDir ?? repo.gitdir), objects: new Map() };
  let oid = await resolveBase(ctx, parsed.revision.base);
  for (const step of parsed.revision.steps) oid = await applyStep(ctx, oid, step);
  const commit = await peelTo(ctx, oid, 'commit');
  return commit.oid;
}

interface Resolving {
  repo: GitSourceRepo;
  text: string;
  refs: RefStore;
  objects: Map<string, RevObject>;
}

function fail(
  repo: GitSourceRepo,
  text: string,
  code: 'RefNotFound' | 'AmbiguousRef' | 'NotACommit',
  what: string,
) {
  return new GitSourceError(code, `revision '${escapeText(text)}' in ${repo.dir}: ${what}`);
}

async function resolveBase(ctx: Resolving, base: RevisionBase): Promise<string> {
  switch (base.type) {
    case 'head':
      return (
        resolveRefName(ctx.refs, 'HEAD') ??
        nothing(ctx, 'HEAD does not point at a commit (an unborn branch?)')
      );
    case 'name':
      return resolveName(ctx, base.name);
    case 'reflog':
      return resolveReflog(ctx, base.ref, base.n);
    case 'upstream':
      return resolveUpstream(ctx, base.branch);
    case 'messageSearch': {
      const tips = listRefTips(ctx.refs);
      const found = await findYoungestMatching(
        (oid) => readObject(ctx, oid),
        tips,
        compile(ctx, base.pattern),
      );
      return (
        found ?? nothing(ctx, `no commit reachable from any ref has a message matching /${base.pattern}/`)
      );
    }
  }
}

// git's order (sha1-name.c get_oid_basic, get_describe_name, get_short_oid): a full object id,
// then the ref names, then `git describe` output, then an abbreviated object id.
async function resolveName(ctx: Resolving, name: string): Promise<string> {
  if (/^[0-9a-fA-F]{40}$/.test(name)) return name.toLowerCase();
  const candidates = refCandidates(name);
  for (const ref of candidates) {
    const oid = resolveRefName(ctx.refs, ref);
    if (oid !== undefined) return oid;
  }
  const abbrev = describedAbbrev(name) ?? (/^[0-9a-fA-F]{4,39}$/.test(name) ? name.toLowerCase() : undefined);
  if (abbrev !== undefined) {
    const oid = await expandAbbrev(ctx, abbrev);
    if (oid !== undefined) return oid;
  }
  const tried = `no ref ${candidates.join(', ')}`;
  return nothing(ctx, abbrev !== undefined ? `${tried}, and no object id starts with ${abbrev}` : tried);
}

// An abbreviation several objects share names the one commit among them (git's committish
// hint); with several commits or tags of commits, it is ambiguous and they are listed.
async function expandAbbrev(ctx: Resolving, abbrev: string): Promise<string | undefined> {
  let matches: string[];
  try {
    matches = objectsStartingWith(ctx.repo.gitdir, abbrev);
  } catch (error) {
    if (!isGitfleetError(error, 'CorruptObject')) throw error;
    throw new GitSourceError(
      'CorruptObject',
      `revision '${escapeText(ctx.text)}' in ${ctx.repo.dir}: ${error.message}: run git fsck in that repository, and restore the pack from a clone`,
    );
  }
  if (matches.length === 0) return undefined;
  if (matches.length === 1) return matches[0];
  const described = await Promise.all(
    matches.map(async (oid) => ({ oid, object: await readObject(ctx, oid) })),
  );
  const committish: string[] = [];
  for (const { oid, object } of described) {
    if (object.type === 'commit') committish.push(oid);
    else if (object.type === 'tag' && (await peelTags(ctx, oid)).type === 'commit') committish.push(oid);
  }
  if (committish.length === 1) return committish[0];
  const list = described.map(({ oid, object }) => `${oid} (${object.type})`).join(', ');
  throw fail(ctx.repo, ctx.text, 'AmbiguousRef', `${abbrev} is ambiguous: it starts ${list}`);
}

function resolveReflog(ctx: Resolving, name: string, n: number): string {
  const ref = name === '' ? currentBranch(ctx) : fullRefName(ctx, name);
  const log = readReflog(ctx.refs, ref);
  if (log === undefined) return nothing(ctx, `${ref} has no reflog`);
  const oid = log[log.length - 1 - n];
  if (oid === undefined || /^0+$/.test(oid))
    return nothing(ctx, `the reflog of ${ref} has only ${log.length - 1} entries`);
  return oid;
}

// As git (remote.c branch_get_upstream): branch.<b>.merge names the remote's branch, and the
// remote's fetch refspecs map it to the remote-tracking ref; remote `.` is this repository.
function resolveUpstream(ctx: Resolving, name: string): string {
  const ref = name === '' ? currentBranch(ctx) : fullRefName(ctx, name);
  if (!ref.startsWith('refs/heads/')) return nothing(ctx, `${ref} is not a branch, so it has no upstream`);
  const branch = ref.slice('refs/heads/'.length);
  const config = readGitConfig(ctx.refs);
  const remote = config.get(`branch.${branch}.remote`)?.at(-1);
  const merge = config.get(`branch.${branch}.merge`)?.at(-1);
  if (!remote || !merge)
    return nothing(ctx, `branch ${branch} has no upstream (no branch.${branch}.remote and .merge)`);
  const upstream = remote === '.' ? merge : mapRefspecs(config.get(`remote.${remote}.fetch`) ?? [], merge);
  if (upstream === undefined)
    return nothing(ctx, `no fetch refspec of remote ${remote} maps ${merge}, the upstream of ${branch}`);
  return (
    resolveRefName(ctx.refs, upstream) ?? nothing(ctx, `the upstream ${upstream} of ${branch} does not exist`)
  );
}

// The first refspec that matches maps the ref, as git's query_refspecs.
function mapRefspecs(specs: readonly string[], ref: string): string | undefined {
  for (const spec of specs) {
    const m = /^\+?([^:]+):(.+)$/.exec(spec.trim());
    if (!m) continue;
    const [src, dst] = [m[1]!, m[2]!];
    const star = src.indexOf('*');
    if (star < 0) {
      if (src === ref) return dst;
      continue;
    }
    const [pre, post] = [src.slice(0, star), src.slice(star + 1)];
    if (ref.startsWith(pre) && ref.endsWith(post) && ref.length >= pre.length + post.length)
      return dst.replace('*', ref.slice(pre.length, ref.length - post.length));
  }
  return undefined;
}

function currentBranch(ctx: Resolving): string {
  return symbolicTarget(ctx.refs, 'HEAD') ?? nothing(ctx, 'HEAD is detached: name the branch');
}

function fullRefName(ctx: Resolving, name: string): string {
  if (name === 'HEAD') return 'HEAD';
  const found = refCandidates(name).find((ref) => resolveRefName(ctx.refs, ref) !== undefined);
  return found ?? nothing(ctx, `no ref ${refCandidates(name).join(', ')}`);
}

/**
 * Returns the repository's own config file as `section.subsection.key` → values (sections and
 * keys lower-cased, subsections as written), enough for branch.*, remote.* and user.* lookups.
 */
export function readGitConfig(refs: Pick<RefStore, 'commondir'>): Map<string, string[]> {
  const values = new Map<string, string[]>();
  let text: string;
  try {
    text = nodeFs.readFileSync(`${refs.commondir}/config`, 'utf8');
  } catch {
    return values;
  }
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      const m = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
      section = m
        ? `${m[1]!.toLowerCase()}${m[2] !== undefined ? `.${m[2].replace(/\\(.)/g, '$1')}` : ''}`
        : '';
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!kv || section === '') continue;
    const key = `${section}.${kv[1]!.toLowerCase()}`;
    values.set(key, [...(values.get(key) ?? []), kv[2]!.trim().replace(/^"(.*)"$/, '$1')]);
  }
  return values;
}

async function applyStep(ctx: Resolving, oid: string, step: RevisionStep): Promise<string> {
  switch (step.type) {
    case 'ancestor': {
      let at = await peelTo(ctx, oid, 'commit');
      for (let i = 0; i < step.n; i++) {
        const parent = at.parents[0];
        if (parent === undefined)
          return nothing(ctx, `${at.oid} has no parent (it is ${i} generations above the start)`);
        at = await peelTo(ctx, parent, 'commit');
      }
      return at.oid;
    }
    case 'parent': {
      const at = await peelTo(ctx, oid, 'commit');
      if (step.n === 0) return at.oid;
      const parent = at.parents[step.n - 1];
      return parent ?? nothing(ctx, `${at.oid} has ${at.parents.length} parent(s), not a parent ${step.n}`);
    }
    case 'peel':
      if (step.to === 'object') return oid;
      if (step.to === 'nonTag') return (await peelTags(ctx, oid)).oid;
      return (await peelTo(ctx, oid, step.to)).oid;
    case 'messageSearch': {
      const from = await peelTo(ctx, oid, 'commit');
      const found = await findYoungestMatching(
        (o) => readObject(ctx, o),
        [from.oid],
        compile(ctx, step.pattern),
      );
      return (
        found ?? nothing(ctx, `no commit reachable from ${from.oid} has a message matching /${step.pattern}/`)
      );
    }
  }
}

async function peelTags(ctx: Resolving, oid: string): Promise<RevObject> {
  let object = await readObject(ctx, oid);
  for (let depth = 0; object.type === 'tag' && depth < 100; depth++)
    object = await readObject(ctx, object.target);
  return object;
}

// `^{commit}` peels tags down to a commit; `^{tree}` and `^{blob}` name no commit, which is what
// every revision here must name, so they are refused by name; `^{tag}` asks for a tag object.
async function peelTo(
  ctx: Resolving,
  oid: string,
  type: 'commit' | 'tree' | 'blob' | 'tag',
): Promise<CommitObject> {
  if (type === 'tree' || type === 'blob')
    throw fail(ctx.repo, ctx.text, 'NotACommit', `^{${type}} names a ${type}, and a ${type} is not a commit`);
  if (type === 'tag') {
    const first = await readObject(ctx, oid);
    if (first.type !== 'tag') return notA(ctx, first, 'tag');
  }
  const object = await peelTags(ctx, oid);
  if (object.type !== 'commit') return notA(ctx, object, 'commit');
  return object;
}

function notA(ctx: Resolving, object: RevObject, type: string): never {
  throw fail(ctx.repo, ctx.text, 'NotACommit', `${object.oid} is a ${object.type}, not a ${type}`);
}

async function readObject(ctx: Resolving, oid: string): Promise<RevObject> {
  const known = ctx.objects.get(oid);
  if (known) return known;
  let read;
  try {
    read = readGitObjectNow(ctx.repo, oid);
  } catch (error) {
    if (isGitfleetError(error, 'MissingObject')) return nothing(ctx, `no object ${oid}`);
    if (isGitfleetError(error, 'CorruptObject')) throw new GitSourceError('CorruptObject', error.message);
    throw error;
  }
  const object = toRevObject(oid, read);
  ctx.objects.set(oid, object);
  return object;
}

function toRevObject(oid: string, read: { type: string; content: Buffer }): RevObject {
  if (read.type === 'commit') {
    const c = parseCommit(read.content);
    return { type: 'commit', oid, parents: c.parents, message: c.message, time: committerTime(read.content) };
  }
  if (read.type === 'tag') {
    const target = /^object ([0-9a-f]{40})$/m.exec(read.content.toString('utf8'))?.[1] ?? '';
    return { type: 'tag', oid, target };
  }
  return { type: read.type === 'tree' ? 'tree' : 'blob', oid };
}

// `committer Name <email> 1700000000 +0000` in the header: the seconds since the epoch.
function committerTime(content: Buffer): number {
  const text = content.toString('utf8');
  const header = text.slice(0, Math.max(0, text.indexOf('\n\n')));
  return Number(/^committer .* (\d+) [+-]\d{4}$/m.exec(header)?.[1] ?? 0);
}

function compile(ctx: Resolving, pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'm');
  } catch (error) {
    throw fail(
      ctx.repo,
      ctx.text,
      'RefNotFound',
      `names no commit (/${pattern}/ is not a valid regex: ${(error as Error).message})`,
    );
  }
}

function nothing(ctx: Resolving, why: string): never {
  throw fail(ctx.repo, ctx.text, 'RefNotFound', `names no commit (${why})`);
}
