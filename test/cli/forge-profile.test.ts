import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommandLine } from '../../src/cli/command-line.js';
import { agentSpec } from '../../src/cli/commands/agent-spec.js';
import { hubSpec } from '../../src/cli/commands/hub-spec.js';
import { statusSpec } from '../../src/cli/commands/status-spec.js';
import { uiSpec } from '../../src/cli/commands/ui-spec.js';
import { forgeDefaults } from '../../src/cli/forge-profile.js';
import { UsageError } from '../../src/cli/usage-error.js';

function hub(...args: string[]) {
  const line = parseCommandLine(hubSpec, args, forgeDefaults('hub'));
  assert.ok(!line.help);
  return line;
}

function agent(...args: string[]) {
  const line = parseCommandLine(agentSpec, ['--cluster', 'c1', ...args], forgeDefaults('agent'));
  assert.ok(!line.help);
  return line;
}

test('A github.com URL picks the github profile: its defaults, marked as coming from the profile.', () => {
  const line = hub('--repo', 'https://github.com/acme/fleet.git');
  assert.equal(line.values.interval, 60_000);
  assert.equal(line.values['cluster-monitor-grace-period'], 45 * 60_000);
  assert.equal(line.sources.interval, 'profile');
  assert.equal(line.sources['source-ref'], 'default');
});

test('A flag typed wins over its profile, and says it was given.', () => {
  const line = agent('--repo', 'https://github.com/acme/fleet.git', '--branch-poll', '2s');
  assert.equal(line.values['branch-poll'], 2000);
  assert.equal(line.sources['branch-poll'], 'given');
  assert.equal(line.values.interval, 5 * 60_000, 'the other flags keep the profile');
  assert.equal(line.values['cluster-lease-duration'], 40 * 60_000);
  assert.equal(line.values['cluster-lease-renew-interval-fraction'], 0.5);
});

test('A gitlab host picks the gitlab profile; --forge overrides what the host says.', () => {
  assert.equal(agent('--repo', 'https://gitlab.example.org/acme/fleet.git').values['branch-poll'], 20_000);
  assert.equal(agent('--repo', 'https://gitlab.com/acme/fleet.git').values['branch-poll'], 20_000);
  assert.equal(agent('--repo', '/srv/fleet.git', '--forge', 'github').values['branch-poll'], 30_000);
  assert.equal(agent('--repo', 'https://github.com/a/b', '--forge', 'generic').values['branch-poll'], 1000);
});

test("A local path and other hosts keep today's defaults exactly (generic).", () => {
  for (const repo of ['/srv/fleet.git', 'http://127.0.0.1:9418/fleet.git']) {
    const profiled = agent('--repo', repo);
    const plain = parseCommandLine(agentSpec, ['--cluster', 'c1', '--repo', repo]);
    assert.ok(!plain.help);
    assert.deepEqual(profiled.values, plain.values);
    assert.ok(Object.values(profiled.sources).every((s) => s !== 'profile'));
  }
});

test('The dashboard and status --watch poll less often on github.', () => {
  const ui = parseCommandLine(uiSpec, ['--repo', 'https://github.com/a/b'], forgeDefaults('ui'));
  const status = parseCommandLine(statusSpec, ['--repo', 'https://github.com/a/b'], forgeDefaults('status'));
  assert.ok(!ui.help && !status.help);
  assert.equal(ui.values.interval, 60_000);
  assert.equal(status.values.interval, 60_000);
});

test('An unknown --forge is a usage error naming the flag and the choices.', () => {
  assert.throws(
    () => hub('--repo', '/srv/fleet.git', '--forge', 'bitbucket'),
    (e: unknown) =>
      e instanceof UsageError && e.message === "--forge must be github, gitlab or generic, not 'bitbucket'",
  );
});

test("--help shows the defaults of the command line's forge profile, with the plain ones beside them.", async () => {
  const { runCli } = await import('./run-cli.js');
  const github = await runCli(['agent', '--forge', 'github', '--help']);
  assert.equal(github.code, 0);
  assert.match(
    github.stdout.replace(/\s+/g, ' '),
    /--branch-poll DURATION .*\(default 30s, from the forge profile; 1s without it\)/,
  );
  const plain = await runCli(['agent', '--help']);
  assert.match(plain.stdout.replace(/\s+/g, ' '), /--branch-poll DURATION .*\(default 1s\)/);
  assert.doesNotMatch(plain.stdout, /forge profile;/);
});

test('With the doorbell the github profile puts liveness on beacons: a 40 s lease renewed every 10 s, a Git heartbeat every 4 h.', () => {
  const alone = agent('--repo', 'https://github.com/acme/fleet.git');
  assert.equal(alone.values['cluster-lease-duration'], 40 * 60_000);
  assert.equal(alone.values['doorbell-heartbeat'], undefined);
  assert.equal(alone.values['push-spread'], 20 * 60_000);
  const bell = agent(
    ...['--repo', 'https://github.com/acme/fleet.git', '--notify-url', 'https://hub.example'],
    ...['--notify-token-file', '/etc/token'],
  );
  assert.equal(bell.values['cluster-lease-duration'], 40_000);
  assert.equal(bell.values['cluster-lease-renew-interval-fraction'], 0.25);
  assert.equal(bell.values['doorbell-heartbeat'], 4 * 3_600_000);
  assert.equal(bell.sources['doorbell-heartbeat'], 'profile');
  assert.equal(bell.values['safety-poll'], 5 * 60_000, 'the rest of the profile stays');
  const typed = agent(
    ...[
      '--repo',
      'https://github.com/a/b',
      '--notify-url',
      'https://hub.example',
      '--notify-token-file',
      '/t',
    ],
    ...['--cluster-lease-duration', '2m'],
  );
  assert.equal(typed.values['cluster-lease-duration'], 120_000, 'a flag typed still wins');
});

test("With the doorbell the hub's grace period is Karmada's 40 s again on github and gitlab; generic keeps its own.", () => {
  for (const repo of ['https://github.com/acme/fleet.git', 'https://gitlab.com/acme/fleet.git']) {
    const alone = hub('--repo', repo);
    assert.ok(alone.values['cluster-monitor-grace-period'] >= 10 * 60_000);
    const bell = hub('--repo', repo, '--notify-addr', ':8090', '--notify-tokens', '/etc/tokens.yaml');
    assert.equal(bell.values['cluster-monitor-grace-period'], 40_000);
    assert.equal(bell.values['cluster-startup-grace-period'], 60_000);
    assert.equal(bell.values['cluster-monitor-period'], 10_000);
    assert.equal(bell.values.interval, alone.values.interval, 'its poll of the fleet repository stays');
  }
  const generic = hub('--repo', '/srv/fleet.git', '--notify-addr', ':8090', '--notify-tokens', '/t');
  assert.equal(generic.values['cluster-monitor-grace-period'], 40_000);
  assert.equal(generic.sources['cluster-monitor-grace-period'], 'default');
});

test("--help shows the doorbell's profile defaults when the command line turns the doorbell on.", async () => {
  const { runCli } = await import('./run-cli.js');
  const bell = await runCli(['agent', '--forge', 'github', '--notify-url', 'https://hub.example', '--help']);
  assert.equal(bell.code, 0);
  const text = bell.stdout.replace(/\s+/g, ' ');
  assert.match(text, /--doorbell-heartbeat DURATION .*\(default 4h, from the forge profile/);
  assert.match(
    text,
    /--cluster-lease-duration DURATION .*\(default 40s, from the forge profile; 40s without it\)/,
  );
  const hubHelp = await runCli(['hub', '--forge', 'github', '--notify-addr', ':8090', '--help']);
  assert.match(
    hubHelp.stdout.replace(/\s+/g, ' '),
    /--cluster-monitor-grace-period DURATION .*\(default 40s, from the forge profile; 40s without it\)/,
  );
  const alone = await runCli(['agent', '--forge', 'github', '--help']);
  assert.match(
    alone.stdout.replace(/\s+/g, ' '),
    /--cluster-lease-duration DURATION .*\(default 40m, from the forge profile; 40s without it\)/,
  );
});
