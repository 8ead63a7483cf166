// Writes objects one file each (objects/xx/<38 hex>, zlib-deflated `<type> <len>\0<content>`),
// the cheap path for a handful of objects: no pack to add to the repository's pack list, and
// every reader looks for loose objects first. Each file is written to a temp name, fsynced and
// renamed, so a reader sees a whole object or none.
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { GitObject, GitObjectInput } from './git-object.js';
import { hashObject, objectHeader } from './hash-object.js';
import { assertSameOid, selectNewObjects } from './select-new-objects.js';
import { syncPath, writeNewFile } from './sync-files.js';
import { removeStaleTempFiles, tempFileName } from './temp-files.js';

/** Writes each new object as a loose object file and returns how many files were written. */
export async function writeLooseObjects(opts: {
  gitdir: string;
  objects: readonly GitObjectInput[];
  exists?: (oid: string) => boolean;
  fsync?: boolean;
}): Promise<{ count: number }> {
  const sync = opts.fsync ?? true;
  const objects = selectNewObjects(opts.objects, opts.exists);
  for (const object of objects) {
    assertSameOid(object.oid, hashObject(object.type, object.content), object.type);
  }
  const dirs = [...new Set(objects.map((o) => join(opts.gitdir, 'objects', o.oid.slice(0, 2))))];
  for (const dir of dirs) {
    await mkdir(dir, { recursive: true });
    await removeStaleTempFiles(dir, Date.now());
  }
  // Written side by side: each file's fsync waits on the disk, not on the CPU.
  const written = await Promise.all(objects.map((o) => writeLooseObject(opts.gitdir, o, sync)));
  if (sync) await Promise.all(dirs.map((dir) => syncPath(dir)));
  return { count: written.filter(Boolean).length };
}

/** Writes one object file unless it exists; returns whether it wrote it. */
async function writeLooseObject(gitdir: string, object: GitObject, sync: boolean): Promise<boolean> {
  const dir = join(gitdir, 'objects', object.oid.slice(0, 2));
  const path = join(dir, object.oid.slice(2));
  if (existsSync(path)) return false;
  const header = objectHeader(object.type, object.content.length);
  const deflated = deflateSync(Buffer.concat([header, object.content]));
  const tmp = join(dir, tempFileName('obj'));
  try {
    await writeNewFile(tmp, deflated, sync);
    await rename(tmp, path);
    return true;
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
