// A fleet of agents starting together against a Git host with GitHub's push budget (the forge
// emulator, test/git-server/start-forge.ts: 6 pushes in any minute, 429 past it), over real Git:
// the hub's pass renders every cluster branch, its doorbell (cli/commands/hub-doorbell.ts, the
// github profile) paces the agents, and each agent runs its loop on a fake cluster, wired as
// `gitfleet agent` wires it (agent-doorbell.ts, agent-pacing.ts). All of it on one fake clock,
// which the forge's windows read too. Without the push pacer the same start is a 429 storm:
// every agent's first status and heartbeat at once.
import { after, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { agentWaiting } from '../../src/cli/commands/agent-doorbell.js';
import { agentPushPacer } from '../../src/cli/commands/agent-pacing.js';
import { startHubDoorbell } from '../../src/cli/commands/hub-doorbell.js';
import { remoteHubRepo } from '../../src/adapters/remote/remote-hub-repo.js';
import { rateLimitGates } from '../../src/adapters/remote/rate-limit-gate.js';
import { agentMirrorRefs } from '../../src/loops/agent/agent-repo.js';
import { runAgentLoop } from '../../src/loops/agent/agent-loop.js';
import { writeHeartbeat } from '../../src/loops/agent/heartbeat.js';
import { silentLogger } from '../../src/loops/runtime/logger.js';
import { localHubRepo } from '../../src/adapters/remote/hub-repo.js';
import { startForge, type Forge } from '../git-server/start-forge.js';
import { fakeAgent } from '../loops/agent/fake-agent.js';
import { fakeClock, type FakeClock } from '../loops/runtime/fake-clock.js';
import {
  fleetRepoWith,
  hubPass,
  rendered,
  removeFleetRepos,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeFleetRepos);
after(removeTempDirs);

const clusters = Array.from({ length: 8 }, (_, k) => `m${k + 1}`);

/** A fleet of the eight clusters, one ConfigMap placed on each; the fleet repository holds their status. */
function fleet(): FleetRepo {
  const files: Record<string, string> = {
    'apps/shop/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
    'apps/shop/web.yaml':
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: shop\ndata:\n  a: "1"\n',
    'apps/shop/policy.yaml': [
      'apiVersion: policy.karmada.io/v1alpha1',
      'kind: PropagationPolicy',
      'metadata: { name: shop, namespace: shop }',
      'spec:',
      '  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap }]',
      `  placement: { clusterAffinity: { clusterNames: [${clusters.join(', ')}] } }`,
      '',
    ].join('\n'),
  };
  for (const c of clusters)
    files[`clusters/${c}.yaml`] =
      `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${c}\n`;
  const repo = fleetRepoWith(files, { bare: true });
  execFileSync('git', ['config', 'http.receivepack', 'true'], { cwd: repo.path });
  return repo;
}

/** Starts one agent's loop as `gitfleet agent --notify-url … --forge github` runs it, on the shared clock. */
async function startAgent(
  t: TestContext,
  opts: { cluster: string; url: string; notifyUrl: string; clock: FakeClock; paced: boolean; seed: number },
): Promise<void> {
  const { cluster, clock } = opts;
  const rateLimits = rateLimitGates({ now: () => clock.now(), random: () => 0, onNotice: () => undefined });
  const mirror = remoteHubRepo({
    url: opts.url,
    cacheDir: tempDir('cache'),
    mirrorKey: `agent ${cluster}`,
    sourceRef: `gitfleet/clusters/${cluster}`,
    branchPrefix: 'gitfleet/',
    onlyRefs: agentMirrorRefs('gitfleet/', cluster),
    rateLimits,
  });
  const tokenFile = join(tempDir('token'), 'token');
  writeFileSync(tokenFile, `token-${cluster}\n`);
  const doorbell = { url: opts.notifyUrl, tokenFile, safetyPollMs: 300_000 };
  const random = () => ((opts.seed * 7919) % 1000) / 1000;
  const waiting = await agentWaiting(
    mirror,
    { cluster, branchPrefix: 'gitfleet/', branchPollMs: 30_000, beaconIntervalMs: 10_000, doorbell },
    { clock, log: silentLogger(), random },
  );
  const pacer = opts.paced ? agentPushPacer({ once: false, doorbell }, waiting, clock) : undefined;
  const agent = fakeAgent({ repo: waiting.repo, cluster });
  Object.assign(agent, { clock });
  agent.options.clock = clock;
  if (pacer) agent.options.pacer = pacer;
  let stop!: () => void;
  const loop = runAgentLoop({
    pass: () => agent.pass(),
    client: agent.fake,
    cluster,
    memory: agent.memory,
    triggers: waiting.triggers(),
    clock,
    random,
    log: silentLogger(),
    report: (result) => waiting.passed(result),
    stop: new Promise<void>((resolve) => (stop = resolve)),
    ...(pacer ? { pacer } : {}),
    heartbeat: {
      intervalMs: 10_000,
      stretchedMs: waiting.stretchedMs,
      write: () =>
        writeHeartbeat({
          repo: waiting.repo,
          ref: `refs/heads/gitfleet/heartbeat/${cluster}`,
          cluster,
          author: { name: 'agent', email: 'agent@test.invalid', time: 0, tzOffsetMinutes: 0 },
        }),
    },
  });
  t.after(async () => {
    stop();
    // A loop stopping mid-wait may need its clock to move to finish what it started.
    const ticking = setInterval(() => clock.advance(1000), 10);
    await loop;
    clearInterval(ticking);
  });
}

/** Starts the eight agents together; returns the forge and the fleet repository's name on it. */
async function startFleet(
  t: TestContext,
  paced: boolean,
): Promise<{ forge: Forge; name: string; clock: FakeClock }> {
  const repo = fleet();
  const clock = fakeClock();
  const forge = await startForge({
    root: dirname(repo.path),
    now: () => clock.now(),
    budget: { pushesPerMinute: 6 },
  });
  t.after(() => forge.close());
  const tokens = join(tempDir('tokens'), 'tokens.yaml');
  writeFileSync(tokens, clusters.map((c) => `${c}: token-${c}\n`).join(''));
  const bell = await startHubDoorbell(
    { addr: '127.0.0.1:0', tokensFile: tokens, branchPrefix: 'gitfleet/', forge: 'github' },
    localHubRepo(repo.path),
    { clock, log: silentLogger(), serving: () => true },
  );
  t.after(() => bell.close());
  rendered(await hubPass(repo, { repo: bell.repo }));
  const name = basename(repo.path);
  await Promise.all(
    clusters.map((cluster, k) =>
      startAgent(t, { cluster, url: forge.url(name), notifyUrl: bell.server.url, clock, paced, seed: k + 1 }),
    ),
  );
  return { forge, name, clock };
}

/**
 * Moves the shared clock in one-second steps, letting what each step started run, until `done`
 * or `ms` have passed on it; returns how long it moved.
 */
async function run(clock: FakeClock, ms: number, done: () => boolean = () => false): Promise<number> {
  let moved = 0;
  for (; moved < ms && !done(); moved += 1000) {
    clock.advance(1000);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  return moved;
}

test(
  'eight agents starting together on a GitHub budget push each first status in its own slot: no answer 429',
  { timeout: 240_000 },
  async (t) => {
    const { forge, name, clock } = await startFleet(t, true);
    // The slots of eight clusters on the fleet repository are 16.7 s apart: one period is 133 s
    // (the work itself takes time on this clock too: each step lets real requests run).
    const took = await run(clock, 400_000, () => forge.counts(name).pushes >= clusters.length);
    // Another period: nothing more is due (the heartbeats, stretched to the safety poll, are not).
    await run(clock, 60_000);
    const counts = forge.counts(name);
    t.diagnostic(`${took / 1000} s: pushes ${counts.pushes}, answers 429 ${counts.limited}`);
    assert.equal(counts.limited, 0, 'no push was refused');
    // The first status of each, and no heartbeat: the status proved life, the beacons do after.
    assert.equal(counts.pushes, clusters.length);
  },
);

test(
  'the same start without the push pacer: every first status and heartbeat at once, past the budget (answers 429)',
  { timeout: 240_000 },
  async (t) => {
    const { forge, name, clock } = await startFleet(t, false);
    // Ten seconds on the clock see every start the hub's pacing gives (a few a second); then the
    // clock stands still, so the forge sees every first status in one minute however long each
    // takes to arrive in real time (a clock moving on would spread a busy machine's start over
    // several minutes of the forge's window, and nothing would be refused).
    await run(clock, 10_000);
    const answered = () => forge.counts(name).pushes + forge.counts(name).limited >= clusters.length;
    while (!answered()) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(forge.counts(name).limited > 0, 'the forge refused pushes');
    t.diagnostic(`pushes ${forge.counts(name).pushes}, answers 429 ${forge.counts(name).limited}`);
  },
);
