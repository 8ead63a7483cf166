// A loose object: `objects/<2 hex>/<38 hex>`, the zlib-deflated `<type> <size>\0<content>`.
// The header's size is checked against the content, so a file cut short is CorruptObject.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { GitWriteError } from './git-write-error.js';
import { inflateChunkFromStored } from './zlib-chunk.js';

const types: ReadonlySet<string> = new Set(['blob', 'tree', 'commit', 'tag']);

/** Returns the path of an object's loose file in the git directory. */
export function looseObjectPath(gitdir: string, oid: string): string {
  return join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
}

/** Returns the loose object's type and content, null when there is no such file, or throws CorruptObject saying why. */
export function readLooseObject(gitdir: string, oid: string): { type: string; content: Buffer } | null {
  const path = looseObjectPath(gitdir, oid);
  let stored: Buffer;
  try {
    stored = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw e;
  }
  // The reader (object-database.ts) puts the object and the repository in front of this.
  const damaged = (why: string) =>
    new GitWriteError('CorruptObject', `a truncated or damaged loose object: ${path}: ${why}`);
  let raw: Buffer;
  try {
    raw = inflateSync(stored, { chunkSize: inflateChunkFromStored(stored.length) });
  } catch (e) {
    throw damaged(`it does not inflate: ${(e as Error).message}`);
  }
  const nul = raw.indexOf(0);
  const header = nul < 0 ? '' : raw.toString('latin1', 0, nul);
  const match = /^([a-z]+) (\d+)$/.exec(header);
  if (match === null || !types.has(match[1]!)) throw damaged('no object header');
  const content = raw.subarray(nul + 1);
  if (content.length !== Number(match[2])) {
    throw damaged(`the header says ${match[2]} bytes, the file holds ${content.length}`);
  }
  return { type: match[1]!, content };
}
