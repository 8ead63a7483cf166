// Temporary files of the object writers. They follow git's own naming (`tmp_pack_*`,
// `tmp_idx_*` in objects/pack, `tmp_obj_*` in objects/xx), so git ignores them just as it
// ignores its own (no `.pack`/`.idx` suffix until the final rename) and `git prune` removes
// them; each name carries the writer's pid so the next write can tell a crashed writer's
// leftovers from a live one's.
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pidExists } from './pid-exists.js';

export type TempFileKind = 'pack' | 'idx' | 'obj';

const pattern = /^tmp_(pack|idx|obj)_gitfleet_(\d+)_[0-9a-f]+$/;
/** A temp file older than this is a leftover even if its pid is alive (pids are reused). */
const maxAgeMs = 60 * 60 * 1000;

/** Returns a fresh temp file name of the given kind, unique to this process and call. */
export function tempFileName(kind: TempFileKind): string {
  return `tmp_${kind}_gitfleet_${process.pid}_${randomBytes(6).toString('hex')}`;
}

/**
 * Removes this writer's temp files in `dir` left by a writer that is gone (its pid no longer
 * runs on this host) or older than an hour, and returns their names. Files of live writers,
 * this process's included, are left alone.
 */
export async function removeStaleTempFiles(dir: string, now: number): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const match = pattern.exec(name);
    if (!match) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info) continue;
    if (pidExists(Number(match[2])) && now - info.mtimeMs < maxAgeMs) continue;
    await rm(path, { force: true });
    removed.push(name);
  }
  return removed;
}
