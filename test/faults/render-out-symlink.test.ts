// Fault: a cluster directory (or a file inside one) of the render output is swapped for a
// symbolic link to somewhere else; a render must not read, write or delete through it.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../cli/run-cli.js';
import { aFleetDir } from './fleet-dir.js';

const dir = aFleetDir();
after(() => dir.remove());

test('A cluster directory replaced by a symlink is refused, naming it, and what it points at is untouched.', async () => {
  const out = join(dir.root, 'out-dir-link');
  assert.equal((await runCli(['render', dir.fleet, '--out', out])).code, 0);
  const elsewhere = join(dir.root, 'precious');
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, 'notes.txt'), 'keep me\n');
  rmSync(join(out, 'c1'), { recursive: true });
  symlinkSync(elsewhere, join(out, 'c1'));

  const run = await runCli(['render', dir.fleet, '--out', out]);

  assert.equal(run.code, 1);
  assert.match(run.stderr, /out-dir-link\/c1: .*symbolic link/);
  assert.deepEqual(readdirSync(elsewhere), ['notes.txt']);
  assert.equal(readFileSync(join(elsewhere, 'notes.txt'), 'utf8'), 'keep me\n');
});

test('A directory inside a cluster directory replaced by a symlink is refused before anything is written.', async () => {
  const out = join(dir.root, 'out-nested-link');
  assert.equal((await runCli(['render', dir.fleet, '--out', out])).code, 0);
  const elsewhere = join(dir.root, 'precious-nested');
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, 'notes.txt'), 'keep me\n');
  rmSync(join(out, 'c2', 'default'), { recursive: true });
  symlinkSync(elsewhere, join(out, 'c2', 'default'));

  const run = await runCli(['render', dir.fleet, '--out', out]);

  assert.equal(run.code, 1);
  assert.match(run.stderr, /out-nested-link\/c2\/default: .*symbolic link/);
  assert.deepEqual(readdirSync(elsewhere), ['notes.txt']);
});

test('A rendered file replaced by a symlink is not written through.', async () => {
  const out = join(dir.root, 'out-file-link');
  assert.equal((await runCli(['render', dir.fleet, '--out', out])).code, 0);
  const target = join(dir.root, 'precious-file.txt');
  writeFileSync(target, 'keep me\n');
  const file = join(out, 'c1', 'default', 'ConfigMap', 'web.yaml');
  rmSync(file);
  symlinkSync(target, file);

  const run = await runCli(['render', dir.fleet, '--out', out]);

  assert.equal(run.code, 1);
  assert.match(run.stderr, /c1\/default\/ConfigMap\/web\.yaml: .*symbolic link/);
  assert.equal(readFileSync(target, 'utf8'), 'keep me\n');
});

test('The marker file replaced by a symlink is not written through.', async () => {
  const out = join(dir.root, 'out-marker-link');
  assert.equal((await runCli(['render', dir.fleet, '--out', out])).code, 0);
  const target = join(dir.root, 'precious-marker.txt');
  writeFileSync(target, 'keep me\n');
  rmSync(join(out, '.gitfleet-render'));
  symlinkSync(target, join(out, '.gitfleet-render'));

  const run = await runCli(['render', dir.fleet, '--out', out]);

  assert.equal(run.code, 1);
  assert.match(run.stderr, /\.gitfleet-render: .*symbolic link/);
  assert.equal(readFileSync(target, 'utf8'), 'keep me\n');
});
