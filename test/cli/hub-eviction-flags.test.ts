// The hub's eviction flags (cli/commands/hub.ts), with Karmada's names and defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommandLine } from '../../src/cli/command-line.js';
import { failoverSettingsOf, hubSpec, parseEvictionRate } from '../../src/cli/commands/hub-spec.js';
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

test('hub failover flags: the default tolerations, the fleet disruption and the success threshold have their defaults', () => {
  const settings = failoverSettingsOf(valuesOf([]));
  assert.deepEqual(settings, defaultFailoverSettings);
  assert.equal(valuesOf([])['cluster-success-threshold'], 30_000);
});

test('hub failover flags: given values are read', () => {
  const v = valuesOf([
    '--default-not-ready-toleration-seconds=0',
    '--default-unreachable-toleration-seconds=120',
    '--unhealthy-fleet-threshold=0.7',
    '--large-fleet-size-threshold=10',
    '--secondary-resource-eviction-rate=0.1',
    '--cluster-success-threshold=1s',
  ]);
  const settings = failoverSettingsOf(v);
  assert.equal(settings.defaultNotReadyTolerationSeconds, 0);
  assert.equal(settings.defaultUnreachableTolerationSeconds, 120);
  assert.equal(settings.unhealthyFleetThreshold, 0.7);
  assert.equal(settings.largeFleetSizeThreshold, 10);
  assert.equal(settings.secondaryResourceEvictionRate, 0.1);
  assert.equal(v['cluster-success-threshold'], 1000);
});

test('hub failover flags: a bad value is a usage error naming the flag', async () => {
  const cases: [string, RegExp][] = [
    [
      '--default-unreachable-toleration-seconds=-1',
      /--default-unreachable-toleration-seconds must be a whole number of seconds, 0 or more, not '-1'/,
    ],
    [
      '--default-not-ready-toleration-seconds=5m',
      /--default-not-ready-toleration-seconds must be a whole number of seconds/,
    ],
    ['--unhealthy-fleet-threshold=1.5', /--unhealthy-fleet-threshold must be a number above 0 and at most 1/],
    ['--large-fleet-size-threshold=many', /--large-fleet-size-threshold must be a whole number of clusters/],
    [
      '--secondary-resource-eviction-rate=-0.1',
      /--secondary-resource-eviction-rate must be a number of evictions per second, 0 or more/,
    ],
  ];
  for (const [flag, want] of cases) {
    const out = await runCli(['hub', '--repo', 'r', '--once', flag]);
    assert.equal(out.code, 2, `${flag}: ${out.stderr}`);
    assert.match(out.stderr, want);
  }
});
