// Reads refs of a local repository as git stores them: a loose file (`<oid>` or `ref: <target>`)
// under the git directory, or a line of `packed-refs`; a linked work tree keeps its HEAD in its
// own git directory and every other ref in the common one (`commondir`). Reflogs are read from
// `logs/<ref>`. Only what resolving a revision needs (resolve-revision.ts).
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** Where a repository's refs live. */
export interface RefStore {
  /** The repository's git directory (HEAD and per-work-tree refs). */
  gitdir: string;
  /** The common git directory (every other ref): `gitdir` unless it is a linked work tree. */
  commondir: string;
}

/** Returns the ref store of a git directory. */
export function openRefStore(gitdir: string): RefStore {
  const file = join(gitdir, 'commondir');
  if (!existsSync(file)) return { gitdir, commondir: gitdir };
  const text = readFileSync(file, 'utf8').trim();
  return { gitdir, commondir: isAbsolute(text) ? text : join(gitdir, text) };
}

// Refs a linked work tree keeps for itself (git's "per-worktree" refs).
function isPerWorktree(ref: string): boolean {
  return !ref.startsWith('refs/') || ref.startsWith('refs/bisect/') || ref.startsWith('refs/worktree/');
}

function dirOf(store: RefStore, ref: string): string {
  return isPerWorktree(ref) ? store.gitdir : store.commondir;
}

/** Returns the raw value of one ref: an object id or `ref: <target>`, or undefined when there is no such ref. */
export function readRawRef(store: RefStore, ref: string): string | undefined {
  if (!isSafeRefName(ref)) return undefined;
  const loose = join(dirOf(store, ref), ...ref.split('/'));
  try {
    const text = readFileSync(loose, 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(text) || text.startsWith('ref: ')) return text;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EISDIR' && code !== 'ENOTDIR') throw error;
  }
  return readPackedRefs(store).get(ref);
}

/** Returns the object id a ref points at, following symbolic refs; undefined when it or its target is missing. */
export function resolveRefName(store: RefStore, ref: string): string | undefined {
  let name = ref;
  for (let depth = 0; depth < 10; depth++) {
    const raw = readRawRef(store, name);
    if (raw === undefined) return undefined;
    if (!raw.startsWith('ref: ')) return raw;
    name = raw.slice(5).trim();
  }
  return undefined;
}

/** Returns the ref a symbolic ref names (HEAD → refs/heads/main), or undefined when it is not symbolic. */
export function symbolicTarget(store: RefStore, ref: string): string | undefined {
  const raw = readRawRef(store, ref);
  return raw?.startsWith('ref: ') ? raw.slice(5).trim() : undefined;
}

/** Returns the packed refs (name → object id; peeled `^` lines are left out). */
export function readPackedRefs(store: RefStore): Map<string, string> {
  const refs = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(join(store.commondir, 'packed-refs'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return refs;
    throw error;
  }
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{40}) (\S+)$/.exec(line);
    if (m) refs.set(m[2]!, m[1]!);
  }
  return refs;
}

/** Returns the new object ids of a ref's reflog, oldest first, with the first entry's old id before them. */
export function readReflog(store: RefStore, ref: string): string[] | undefined {
  if (!isSafeRefName(ref)) return undefined;
  let text: string;
  try {
    text = readFileSync(join(dirOf(store, ref), 'logs', ...ref.split('/')), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const ids: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{40}) ([0-9a-f]{40}) /.exec(line);
    if (!m) continue;
    if (ids.length === 0) ids.push(m[1]!);
    ids.push(m[2]!);
  }
  return ids;
}

// A ref name read as a path must stay inside the git directory: no `..`, no empty or dot
// components, no backslashes, and for a name outside refs/ only git's all-caps names (HEAD,
// FETCH_HEAD, ORIG_HEAD…), so `config` or `index` are never read as refs.
function isSafeRefName(ref: string): boolean {
  const parts = ref.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.endsWith('.lock'))) return false;
  if (/[\\\0\s~^:?*[]/.test(ref)) return false;
  return ref.startsWith('refs/') || /^[A-Z_]+$/.test(ref);
}
