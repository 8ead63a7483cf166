// The cluster monitor's flags on the hub and the heartbeat's flags on the agent: Karmada's
// names and defaults, Go's duration form, and the usage errors of values that cannot work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommandLine } from '../../src/cli/command-line.js';
import { parseInterval } from '../../src/cli/parse-interval.js';
import { agentSpec } from '../../src/cli/commands/agent-spec.js';
import { hubSpec, monitorSettings } from '../../src/cli/commands/hub-spec.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { runCli } from './run-cli.js';

function values<S extends Parameters<typeof parseCommandLine>[0]>(spec: S, args: string[]) {
  const parsed = parseCommandLine(spec, args);
  assert.equal(parsed.help, false);
  return (parsed as { values: Record<string, unknown> }).values;
}

const goDurations = [
  { given: '40s', want: 40_000 },
  { given: '5m', want: 300_000 },
  { given: '1m30s', want: 90_000 },
  { given: '1h2m3s', want: 3_723_000 },
  { given: '500ms', want: 500 },
  { given: '1.5h', want: 5_400_000 },
  { given: '2s500ms', want: 2_500 },
  { given: '1m30', want: undefined },
  { given: 's', want: undefined },
  { given: '-5s', want: undefined },
  { given: '10us', want: undefined },
];

for (const { given, want } of goDurations) {
  test(`a duration in Go's form: ${given} is ${want === undefined ? 'refused' : `${want} ms`}`, () =>
    assert.equal(parseInterval(given), want));
}

test("the hub's monitor flags have Karmada's defaults", () => {
  const v = values(hubSpec, ['--repo', '.']);
  assert.deepEqual(
    [v['cluster-monitor-period'], v['cluster-monitor-grace-period'], v['cluster-startup-grace-period']],
    [5_000, 40_000, 60_000],
  );
});

test("the hub's monitor flags take Go durations", () => {
  const v = values(hubSpec, [
    '--repo',
    '.',
    '--cluster-monitor-period',
    '500ms',
    '--cluster-monitor-grace-period',
    '1m30s',
    '--cluster-startup-grace-period',
    '5m',
  ]);
  assert.deepEqual(
    [v['cluster-monitor-period'], v['cluster-monitor-grace-period'], v['cluster-startup-grace-period']],
    [500, 90_000, 300_000],
  );
});

test('a monitor period not shorter than the grace period is a usage error naming both flags', () => {
  assert.throws(
    () =>
      monitorSettings({
        periodMs: 40_000,
        gracePeriodMs: 40_000,
        startupGracePeriodMs: 60_000,
        successThresholdMs: 0,
      }),
    (e: unknown) =>
      e instanceof UsageError && /--cluster-monitor-period .*--cluster-monitor-grace-period/.test(e.message),
  );
});

test('hub with a monitor period longer than the grace period exits 2', async () => {
  const run = await runCli([
    'hub',
    '--repo',
    '.',
    '--cluster-monitor-period',
    '1m',
    '--cluster-monitor-grace-period',
    '40s',
  ]);
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /--cluster-monitor-period \(60000 ms\) must be shorter than --cluster-monitor-grace-period \(40000 ms\)/,
  );
});

test("the agent's heartbeat flags have Karmada's defaults", () => {
  const v = values(agentSpec, ['--repo', '.', '--cluster', 'member1']);
  assert.deepEqual(
    [
      v['cluster-status-update-frequency'],
      v['cluster-lease-duration'],
      v['cluster-lease-renew-interval-fraction'],
    ],
    [10_000, 40_000, 0.25],
  );
});

test("the agent's heartbeat flags take Go durations and a fraction", () => {
  const v = values(agentSpec, [
    '--repo',
    '.',
    '--cluster',
    'member1',
    '--cluster-lease-duration',
    '1m',
    '--cluster-lease-renew-interval-fraction',
    '0.5',
    '--cluster-status-update-frequency',
    '30s',
  ]);
  assert.deepEqual(
    [
      v['cluster-status-update-frequency'],
      v['cluster-lease-duration'],
      v['cluster-lease-renew-interval-fraction'],
    ],
    [30_000, 60_000, 0.5],
  );
});

for (const given of ['0', '1.5', 'quarter', '1.01', '']) {
  test(`--cluster-lease-renew-interval-fraction '${given}' is a usage error`, () => {
    assert.throws(
      () =>
        values(agentSpec, [
          '--repo',
          '.',
          '--cluster',
          'm1',
          '--cluster-lease-renew-interval-fraction',
          given,
        ]),
      /--cluster-lease-renew-interval-fraction must be a number above 0 and at most 1/,
    );
  });
}
