// The tree object format: entries `<mode> <name>\0<20-byte id>`, sorted the way git sorts
// them: by the bytes of the name, a directory's name compared as if it ended in '/'
// (so `a.b` < `a/` < `a0`). Modes are written without leading zeros (`40000`, not `040000`),
// which `git fsck --strict` insists on.
import { GitWriteError } from './git-write-error.js';

/** One entry of a tree: a file (100644, 100755), symlink (120000), submodule (160000) or tree (40000). */
export interface TreeEntry {
  mode: string;
  name: string;
  oid: string;
}

export const fileMode = '100644';
export const treeMode = '40000';

/** Returns the content of the tree object holding the given entries, in git's order. */
export function encodeTree(entries: readonly TreeEntry[]): Buffer {
  const keyed = entries.map((e) => ({ e, key: e.mode === treeMode ? `${e.name}/` : e.name }));
  keyed.sort((a, b) => compareUtf8(a.key, b.key));
  const heads = keyed.map(({ e }) => `${e.mode} ${e.name}\0`);
  const out = Buffer.alloc(heads.reduce((sum, h) => sum + Buffer.byteLength(h) + 20, 0));
  let at = 0;
  keyed.forEach(({ e }, i) => {
    if (i > 0 && keyed[i - 1]!.e.name === e.name) {
      throw new GitWriteError('PathConflict', `${e.name}: two entries of one tree have this name`);
    }
    at += out.write(heads[i]!, at, 'utf8');
    at += out.write(e.oid, at, 'hex');
  });
  return out;
}

const surrogate = /[\uD800-\uDFFF]/;

/**
 * Compares strings by their UTF-8 bytes. UTF-16 code units order the same way except where
 * a surrogate pair meets a code unit of U+E000-U+FFFF, so only then are the bytes compared.
 */
function compareUtf8(a: string, b: string): number {
  if (surrogate.test(a) || surrogate.test(b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Returns the entries of a tree object's content, in stored order. */
export function parseTree(content: Uint8Array, oid: string): TreeEntry[] {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.length);
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < bytes.length) {
    const space = bytes.indexOf(0x20, at);
    const nul = bytes.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > bytes.length) {
      throw new GitWriteError('UnsupportedTree', `${oid}: malformed tree object at byte ${at}`);
    }
    const rawName = bytes.subarray(space + 1, nul);
    const name = rawName.toString('utf8');
    if (!Buffer.from(name).equals(rawName)) {
      throw new GitWriteError('UnsupportedTree', `${oid}: entry name at byte ${at} is not UTF-8`);
    }
    entries.push({
      mode: bytes.toString('latin1', at, space),
      name,
      oid: bytes.toString('hex', nul + 1, nul + 21),
    });
    at = nul + 21;
  }
  return entries;
}

/**
 * Returns the entry `name` of a tree object's content, scanning the bytes without decoding the
 * other entries, or undefined when it has none (or the bytes end before it).
 */
export function findTreeEntry(content: Uint8Array, name: string): TreeEntry | undefined {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.length);
  const wanted = Buffer.from(name, 'utf8');
  let at = 0;
  while (at < bytes.length) {
    const space = bytes.indexOf(0x20, at);
    const nul = bytes.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > bytes.length) return undefined;
    if (nul - space - 1 === wanted.length && bytes.compare(wanted, 0, wanted.length, space + 1, nul) === 0)
      return {
        mode: bytes.toString('latin1', at, space),
        name,
        oid: bytes.toString('hex', nul + 1, nul + 21),
      };
    at = nul + 21;
  }
  return undefined;
}
