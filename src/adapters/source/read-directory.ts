// Reads a fleet repo from a plain directory (a working tree included), with the loader's
// default path filter: only *.yaml / *.yml, nothing under a segment starting with '.'.
//
// Symbolic links are skipped, files and directories alike: following them could read files
// outside the tree (or loop), and a commit of the same tree would not read them either.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { comparePaths } from '../../core/load/compare-paths.js';
import { isFleetSourceDirectory, isFleetSourcePath } from '../../core/load/is-fleet-source-path.js';
import type { SourceFile } from '../../core/load/load-fleet.js';
import { decodeSourceText } from './decode-source-text.js';

const READ_BATCH = 64;

/** Returns every fleet file under `dir`, paths relative with '/', sorted by path. */
export async function readDirectorySource(dir: string): Promise<SourceFile[]> {
  const paths: string[] = [];
  await listFleetFiles(dir, '', paths);
  paths.sort(comparePaths);
  const files: SourceFile[] = [];
  for (let i = 0; i < paths.length; i += READ_BATCH) {
    const batch = paths.slice(i, i + READ_BATCH);
    const contents = await Promise.all(batch.map((p) => readFile(join(dir, ...p.split('/')))));
    batch.forEach((path, j) => files.push({ path, content: decodeSourceText(contents[j] as Buffer, path) }));
  }
  return files;
}

async function listFleetFiles(root: string, prefix: string, out: string[]): Promise<void> {
  const entries = await readdir(prefix ? join(root, prefix) : root, { withFileTypes: true });
  for (const entry of entries) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (isFleetSourceDirectory(entry.name)) await listFleetFiles(root, path, out);
    } else if (entry.isFile() && isFleetSourcePath(path)) {
      out.push(path);
    }
  }
}
