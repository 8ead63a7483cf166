// Fault: a fleet file holds bytes that are not UTF-8 (a Latin-1 file, a truncated write); it
// must be refused naming the file and the byte offset, not read with the bytes replaced.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { testGitEnv } from '../git-env.js';
import { runCli } from '../cli/run-cli.js';
import { aFleetDir } from './fleet-dir.js';

const dir = aFleetDir();
after(() => dir.remove());
// `café` in Latin-1: the é is the single byte 0xe9.
dir.write(
  'latin1.yaml',
  Buffer.concat([
    Buffer.from(
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: menu, namespace: default}\ndata: {item: caf',
    ),
    Buffer.from([0xe9]),
    Buffer.from('}\n'),
  ]),
);

test('render of a directory refuses a file that is not UTF-8, naming it and the byte offset; nothing is written.', async () => {
  const out = join(dir.root, 'out');
  const run = await runCli(['render', dir.fleet, '--out', out]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /latin1\.yaml: not valid UTF-8 at byte 90 \(line 4\)/);
  assert.equal(existsSync(out), false);
});

test('validate of a commit refuses the same file the same way.', async () => {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir.fleet, env: testGitEnv });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'fleet');
  const run = await runCli(['validate', dir.fleet, '--ref', 'main']);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /latin1\.yaml: not valid UTF-8 at byte 90 \(line 4\)/);
});

test('hub --once refuses the same file the same way, naming it, and writes no branch.', async () => {
  const run = await runCli(['hub', '--repo', dir.fleet, '--once']);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /latin1\.yaml: not valid UTF-8 at byte 90 \(line 4\)/);
  const refs = execFileSync('git', ['for-each-ref', 'refs/heads/gitfleet/'], {
    cwd: dir.fleet,
    env: testGitEnv,
  });
  assert.equal(refs.toString(), '');
});
