import { mkdir, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const marker = '.gitfleet-render';

/** A change to one file of a rendered cluster directory. */
export interface FileChange {
  cluster: string;
  path: string;
  change: 'added' | 'changed' | 'removed';
}

/** Raised when an output directory holds something gitfleet did not write. */
export class OutputDirError extends Error {
  readonly code = 'OutputDirNotOurs';
}

/**
 * Writes every cluster's files under `dir/<cluster>/`, removes files no longer rendered, and
 * returns what changed. Only a directory that is empty or was written by gitfleet (it carries a
 * marker file) is touched, so a mistyped --out can never delete someone's files. Files that
 * did not change are not rewritten.
 */
export async function writeRenderDir(
  dir: string,
  clusters: ReadonlyMap<string, ReadonlyMap<string, string>>,
): Promise<FileChange[]> {
  await claimDirectory(dir);
  const changes: FileChange[] = [];
  const existingClusters = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  for (const [cluster, files] of clusters) {
    const base = join(dir, cluster);
    const before = new Set(await listFiles(base));
    for (const [path, text] of files) {
      const file = join(base, path);
      const had = before.delete(path);
      if (had && (await readFile(file, 'utf8')) === text) continue;
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
      changes.push({ cluster, path, change: had ? 'changed' : 'added' });
    }
    for (const path of before) {
      if (path.startsWith('.gitfleet/')) continue;
      await rm(join(base, path));
      await pruneEmptyDirs(base, dirname(path));
      changes.push({ cluster, path, change: 'removed' });
    }
  }
  for (const name of existingClusters) {
    if (clusters.has(name)) continue;
    for (const path of await listFiles(join(dir, name)))
      changes.push({ cluster: name, path, change: 'removed' });
    await rm(join(dir, name), { recursive: true });
  }
  return changes;
}

async function claimDirectory(dir: string): Promise<void> {
  if (!existsSync(dir)) {
    await mkdir(dir, { recursive: true });
  } else if (!existsSync(join(dir, marker))) {
    const entries = await readdir(dir);
    if (entries.length > 0) {
      throw new OutputDirError(
        `${dir}: not empty and not written by gitfleet render (no ${marker}); refusing to write there`,
      );
    }
  }
  await writeFile(
    join(dir, marker),
    'This directory is written by `gitfleet render`; its contents are replaced on every render.\n',
  );
}

async function listFiles(base: string, prefix = ''): Promise<string[]> {
  if (!existsSync(join(base, prefix))) return [];
  const out: string[] = [];
  for (const entry of await readdir(join(base, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(base, rel)));
    else out.push(rel);
  }
  return out;
}

async function pruneEmptyDirs(base: string, rel: string): Promise<void> {
  while (rel && rel !== '.') {
    try {
      await rmdir(join(base, rel));
    } catch {
      return;
    }
    rel = dirname(rel);
  }
}
