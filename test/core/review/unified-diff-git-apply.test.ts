// The generated patches are checked by the real `git apply`, in a temp repository.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unifiedDiff } from '../../../src/core/review/unified-diff.js';
import { seededRandom } from '../seeded-random.js';
import { randomEdit } from './random-edits.js';

const dir = mkdtempSync(join(tmpdir(), 'gitfleet-unified-'));
execFileSync('git', ['init', '-q', dir]);
after(() => rmSync(dir, { recursive: true, force: true }));

function gitApply(patch: string, check: boolean): void {
  const file = join(dir, '.git', 'test.patch');
  writeFileSync(file, patch);
  execFileSync('git', ['apply', ...(check ? ['--check'] : []), file], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

test('git apply accepts the patches of random edits and turns the old text into the new one', () => {
  const random = seededRandom(2024);
  let applied = 0;
  for (let round = 0; round < 40; round++) {
    const { a, b } = randomEdit(random);
    const patch = unifiedDiff({ oldPath: 'file.yaml', newPath: 'file.yaml', a, b });
    if (patch === '') continue;
    writeFileSync(join(dir, 'file.yaml'), a);
    gitApply(patch, true);
    gitApply(patch, false);
    assert.equal(readFileSync(join(dir, 'file.yaml'), 'utf8'), b, patch);
    applied++;
  }
  assert.ok(applied > 30, `most random edits change something (${applied})`);
});

test('git apply creates an added file and deletes a removed one from their patches', () => {
  const path = 'ns/Kind/new.yaml';
  gitApply(unifiedDiff({ oldPath: null, newPath: path, a: '', b: 'a: 1\nb: 2' }), false);
  assert.equal(readFileSync(join(dir, path), 'utf8'), 'a: 1\nb: 2');
  gitApply(unifiedDiff({ oldPath: path, newPath: null, a: 'a: 1\nb: 2', b: '' }), false);
  assert.equal(existsSync(join(dir, path)), false);
});

test('git apply refuses a patch whose context does not match, so the check is a real one', () => {
  writeFileSync(join(dir, 'other.yaml'), 'x\ny\nz\n');
  const patch = unifiedDiff({ oldPath: 'other.yaml', newPath: 'other.yaml', a: 'x\nQ\nz\n', b: 'x\nR\nz\n' });
  assert.throws(() => gitApply(patch, true));
});
