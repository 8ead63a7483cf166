// The hub's eviction flags (cli/commands/hub.ts), with Karmada's names and defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommandLine } from '../../src/cli/command-line.js';
import { hubSpec, parseEvictionRate } from '../../src/cli/commands/hub-spec.js';
import { defaultFailoverSettings } from '../../src/core/model/failover.js';
import { runCli } from './run-cli.js';

function valuesOf(args: string[]) {
  const line = parseCommandLine(hubSpec, ['--repo', 'r', ...args]);
  assert.ok(!line.help);
  return line.values;
}

test('hub eviction flags: the defaults are Karmada’s (and defaultFailoverSettings)', () => {
  const v = valuesOf([]);
  assert.equal(v['enable-no-execute-taint-eviction'], defaultFailoverSettings.enableNoExecuteTaintEviction);
  assert.equal(
    v['no-execute-taint-eviction-purge-mode'],
    defaultFailoverSettings.noExecuteTaintEvictionPurgeMode,
  );
  assert.equal(parseEvictionRate(v['resource-eviction-rate']), defaultFailoverSettings.resourceEvictionRate);
  assert.equal(v['graceful-eviction-timeout'] / 1000, defaultFailoverSettings.gracefulEvictionTimeoutSeconds);
});

test('hub eviction flags: given values are read', () => {
  const v = valuesOf([
    '--enable-no-execute-taint-eviction',
    '--no-execute-taint-eviction-purge-mode',
    'Directly',
    '--resource-eviction-rate',
    '2.5',
    '--graceful-eviction-timeout',
    '90s',
  ]);
  assert.equal(v['enable-no-execute-taint-eviction'], true);
  assert.equal(v['no-execute-taint-eviction-purge-mode'], 'Directly');
  assert.equal(parseEvictionRate(v['resource-eviction-rate']), 2.5);
  assert.equal(v['graceful-eviction-timeout'], 90_000);
  assert.equal(parseEvictionRate('0'), 0);
});

test('hub eviction flags: a bad purge mode or rate is a usage error naming the flag', async () => {
  const mode = await runCli([
    'hub',
    '--repo',
    'r',
    '--once',
    '--no-execute-taint-eviction-purge-mode',
    'Never',
  ]);
  assert.equal(mode.code, 2);
  assert.match(
    mode.stderr,
    /--no-execute-taint-eviction-purge-mode must be Directly or Gracefully, not 'Never'/,
  );
  for (const bad of ['-1', 'fast', '']) {
    const rate = await runCli(['hub', '--repo', 'r', '--once', `--resource-eviction-rate=${bad}`]);
    assert.equal(rate.code, 2, rate.stderr);
    assert.match(rate.stderr, /--resource-eviction-rate must be a number of evictions per second, 0 or more/);
  }
});
