import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, test } from 'node:test';
import { aFleetDir } from '../faults/fleet-dir.js';
import { runCli } from './run-cli.js';
import { testGitEnv } from '../git-env.js';

const dir = aFleetDir();
after(() => dir.remove());

const fleetConfig = (branchPrefix: string) =>
  `apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: {name: fleet}\nspec: {branchPrefix: ${JSON.stringify(branchPrefix)}}\n`;

test('validate refuses a branchPrefix under the source branch, as the hub would.', async () => {
  dir.write('fleet.yaml', fleetConfig('main/'));
  const run = await runCli(['validate', dir.fleet]);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /spec\.branchPrefix: "main\/": puts gitfleet's branches under the source branch main/,
  );
});

test('validate refuses a branchPrefix with control characters and prints them escaped.', async () => {
  dir.write('fleet.yaml', fleetConfig('fleet\u0000\u001b[2J/'));
  const run = await runCli(['validate', dir.fleet]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /spec\.branchPrefix: "fleet\\u0000\\u001b\[2J\/": not a usable git branch prefix/);
  assert.ok(![...run.stderr].some((c) => c < ' ' && c !== '\n'), 'no raw control character');
});

test('validate accepts a usable branchPrefix.', async () => {
  dir.write('fleet.yaml', fleetConfig('fleet'));
  const run = await runCli(['validate', dir.fleet]);
  assert.equal(run.code, 0, run.stderr);
});

test('hub --once refuses the same branchPrefix with the same message, before writing anything.', async () => {
  dir.write('fleet.yaml', fleetConfig('main/'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir.fleet, env: testGitEnv });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'fleet');
  const run = await runCli(['hub', '--repo', dir.fleet, '--once']);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /spec\.branchPrefix: "main\/": puts gitfleet's branches under the source branch main/,
  );
  assert.equal(git('for-each-ref', 'refs/heads/main/').toString(), '');
});
