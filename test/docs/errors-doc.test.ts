// docs/errors.md against src: every error class declared in src is named on that page, so a new
// kind of failure cannot ship without its code being documented.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../clusters/harness/ensure-binaries.js';

const root = repoRoot();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return entry.endsWith('.ts') ? [path] : [];
  });
}

/** Every `class X extends Y` in src whose name or base ends in Error, or whose base is a listed class. */
function errorClasses(): Map<string, string> {
  const declared = new Map<string, { base: string; file: string }>();
  for (const file of sourceFiles(join(root, 'src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\bclass (\w+)(?:<[^>]*>)? extends (\w+)/g)) {
      declared.set(m[1]!, { base: m[2]!, file: file.slice(root.length + 1) });
    }
  }
  const isError = (name: string, seen = new Set<string>()): boolean => {
    if (name === 'Error') return true;
    const d = declared.get(name);
    if (!d || seen.has(name)) return false;
    seen.add(name);
    return isError(d.base, seen);
  };
  const found = new Map<string, string>();
  for (const [name, d] of declared) if (isError(name)) found.set(name, d.file);
  return found;
}

test('every error class in src is named in docs/errors.md', () => {
  const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  const classes = errorClasses();
  assert.ok(
    classes.has('GitfleetError') && classes.size > 20,
    `found only ${[...classes.keys()].join(', ')}`,
  );
  const missing = [...classes]
    .filter(([name]) => !doc.includes(`\`${name}\``))
    .map(([n, f]) => `${n} (${f})`);
  assert.deepEqual(missing, [], 'docs/errors.md does not name these error classes');
});
