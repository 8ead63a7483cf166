// Piping into a reader that goes away (`gitfleet log … | head -1`, issue 27 point 16): the
// read end of stdout closes before or while the command writes. As git does, the output ends
// quietly: no Node trace of an unhandled 'error' event on stderr, and the exit code is the
// command's own (diff's 6 for a change, so `set -o pipefail` scripts read it right). Real
// processes of bin/gitfleet.js with a real pipe whose reader is destroyed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exitCodes } from '../../src/cli/exit-codes.js';
import {
  commitChange,
  exampleFleetRepo,
  removeFleetRepos,
  repoRoot,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';
import { runCli } from './run-cli.js';

after(removeFleetRepos);

let repo: FleetRepo;
let base = '';
let head = '';

before(async () => {
  repo = exampleFleetRepo({ bare: false });
  base = commitChange(repo, 'fleet', () => undefined);
  assert.equal((await runCli(['hub', '--repo', repo.path, '--once'])).code, exitCodes.ok);
  head = commitChange(repo, 'scale web', (work) => {
    const file = join(work, 'apps/shop/web.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('replicas: 10', 'replicas: 12'));
  });
  assert.equal((await runCli(['hub', '--repo', repo.path, '--once'])).code, exitCodes.ok);
});

/** Runs the CLI with stdout a pipe whose reader is destroyed at once; returns its code and stderr. */
function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/gitfleet.js'), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The reader goes away before the command has written: every write meets a closed pipe.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

test('log into a pipe closed early ends quietly with its own exit code', async () => {
  const run = await runIntoClosedPipe(['log', '--repo', repo.path]);
  assert.doesNotMatch(run.stderr, /EPIPE|Unhandled 'error'|node:internal/, run.stderr);
  assert.equal(run.stderr, '');
  assert.equal(run.code, exitCodes.ok);
});

test('diff into a pipe closed early keeps its exit code 6 (changed)', async () => {
  const run = await runIntoClosedPipe(['diff', repo.path, base, head]);
  assert.doesNotMatch(run.stderr, /EPIPE|Unhandled 'error'|node:internal/, run.stderr);
  assert.equal(run.code, exitCodes.changed, run.stderr);
});
