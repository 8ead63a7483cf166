// The folder READMEs against the tree: each top folder of src (core, adapters, loops, cli) says
// in its README.md what it may do, and every folder below it is named there, as `name/` (a
// folder further down as `parent/name/` in the nearest README above it), so a reader who opens
// a README sees the whole folder and a new folder cannot ship unexplained.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { repoRoot } from '../clusters/harness/ensure-binaries.js';

const root = repoRoot();
const src = join(root, 'src');

/** Every folder under dir, deepest last. */
function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return [path, ...folders(path)];
    });
}

/** The README.md of the folder itself or of the nearest folder above it, up to src's top folders. */
function nearestReadme(dir: string): string | undefined {
  for (let at = dir; at.startsWith(`${src}/`); at = dirname(at))
    if (existsSync(join(at, 'README.md'))) return join(at, 'README.md');
  return undefined;
}

test('every top folder of src has a README.md', () => {
  const tops = readdirSync(src, { withFileTypes: true }).filter((e) => e.isDirectory());
  assert.ok(tops.length >= 4, `found only ${tops.map((e) => e.name).join(', ')}`);
  const without = tops.filter((e) => !existsSync(join(src, e.name, 'README.md'))).map((e) => e.name);
  assert.deepEqual(without, [], 'src folders without a README.md');
});

test('every folder under src is named in the README.md of its parent (or the nearest one above)', () => {
  const nested = folders(src).filter((dir) => relative(src, dir).includes('/'));
  assert.ok(nested.length > 30, `found only ${nested.length} folders`);
  const unnamed: string[] = [];
  for (const dir of nested) {
    const readme = nearestReadme(dirname(dir));
    if (readme === undefined) {
      unnamed.push(`${relative(root, dir)}: no README.md above it`);
      continue;
    }
    const name = `\`${relative(dirname(readme), dir)}/\``;
    if (!readFileSync(readme, 'utf8').includes(name))
      unnamed.push(`${relative(root, dir)}: ${relative(root, readme)} does not name ${name}`);
  }
  assert.deepEqual(unnamed, [], 'folders their README does not name');
});
