// The doorbell end to end, over real Git: the hub's pass writes the fleet repository that a
// smart-HTTP server (git's http-backend, which records every request) serves; its doorbell
// (cli/commands/hub-doorbell.ts) learns of each push; the agent's loop on a fake cluster
// follows its branch over HTTP with the doorbell wired as `gitfleet agent` wires it
// (cli/commands/agent-doorbell.ts). The agent's time is a fake clock: how long it idles is the
// test's to say, and the requests the Git server saw meanwhile are counted.
import { after, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { startNotifyServer } from '../../src/adapters/http/notify-server.js';
import { parseNotifyTokens } from '../../src/adapters/http/notify-tokens.js';
import { agentWaiting } from '../../src/cli/commands/agent-doorbell.js';
import { startHubDoorbell, type HubDoorbell } from '../../src/cli/commands/hub-doorbell.js';
import { silentLogger } from '../../src/loops/runtime/logger.js';
import { localHubRepo } from '../../src/adapters/remote/hub-repo.js';
import { agentMirrorOf } from '../adapters/remote/remote-fixture.js';
import { startGitServer, type GitServer } from '../git-server/start-git-server.js';
import { fakeAgent, type FakeAgent } from '../loops/agent/fake-agent.js';
import { fakeClock } from '../loops/runtime/fake-clock.js';
import {
  commitChange,
  fleetRepoWith,
  hubPass,
  rendered,
  removeFleetRepos,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';
import { eventually } from '../support/eventually.js';
import { startDoorbellAgentLoop } from './doorbell-agent-loop.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeFleetRepos);
after(removeTempDirs);

const web = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'web' };

const configMap = (value: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: shop\ndata:\n  a: "${value}"\n`;

/** A fleet of one cluster, m1, with one ConfigMap placed on it; served over smart HTTP. */
async function servedFleet(t: TestContext): Promise<{ repo: FleetRepo; server: GitServer; url: string }> {
  const repo = fleetRepoWith(
    {
      'clusters/m1.yaml': 'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: m1\n',
      'apps/shop/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
      'apps/shop/web.yaml': configMap('1'),
      'apps/shop/policy.yaml': [
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: PropagationPolicy',
        'metadata: { name: shop, namespace: shop }',
        'spec:',
        '  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap }]',
        '  placement: { clusterAffinity: { clusterNames: [m1] } }',
        '',
      ].join('\n'),
    },
    { bare: true },
  );
  execFileSync('git', ['config', 'http.receivepack', 'true'], { cwd: repo.path });
  const server = await startGitServer({ root: dirname(repo.path) });
  t.after(() => server.close());
  return { repo, server, url: server.url(basename(repo.path)) };
}

/** The requests of the agent's reads (ls-refs and fetches) and pushes the server saw so far. */
function gitRequests(server: GitServer): { reads: number; pushes: number } {
  const posts = server.requests.filter((r) => r.method === 'POST');
  return {
    reads: posts.filter((r) => r.path.endsWith('/git-upload-pack')).length,
    pushes: posts.filter((r) => r.path.endsWith('/git-receive-pack')).length,
  };
}

function tokenFile(token: string): string {
  const file = join(tempDir('doorbell'), 'token');
  writeFileSync(file, `${token}\n`);
  return file;
}

/** The hub's doorbell over the served repository, its holds on a clock no one advances. */
async function hubDoorbell(t: TestContext, repo: FleetRepo): Promise<HubDoorbell> {
  const tokens = join(tempDir('doorbell'), 'tokens.yaml');
  writeFileSync(tokens, 'm1: the-m1-token\n');
  const bell = await startHubDoorbell(
    { addr: '127.0.0.1:0', tokensFile: tokens, branchPrefix: 'gitfleet/' },
    localHubRepo(repo.path),
    { clock: fakeClock(), log: silentLogger(), serving: () => true },
  );
  t.after(() => bell.close());
  return bell;
}

/** Starts m1's agent loop on a fake cluster, following `url` with the doorbell at `notifyUrl`. */
async function startAgent(
  t: TestContext,
  opts: { url: string; notifyUrl: string; safetyPollMs: number },
): Promise<FakeAgent> {
  const mirror = agentMirrorOf({ url: opts.url, cacheDir: tempDir('cache') });
  const probe = fakeAgent();
  const waiting = await agentWaiting(
    mirror,
    {
      cluster: 'm1',
      branchPrefix: 'gitfleet/',
      branchPollMs: 1000,
      beaconIntervalMs: 10_000,
      doorbell: {
        url: opts.notifyUrl,
        tokenFile: tokenFile('the-m1-token'),
        safetyPollMs: opts.safetyPollMs,
      },
    },
    { clock: probe.clock, log: silentLogger() },
  );
  return startDoorbellAgentLoop(t, { waiting, clock: probe.clock, heartbeat: true });
}

const applied = (agent: FakeAgent): string | undefined =>
  (agent.fake.peek(web)?.['data'] as Record<string, string> | undefined)?.['a'];

/** Moves the agent's clock by `ms` in steps of `stepMs`, letting what each step started run. */
async function idle(agent: FakeAgent, ms: number, stepMs = 10_000): Promise<void> {
  for (let done = 0; done < ms; done += stepMs) {
    agent.clock.advance(Math.min(stepMs, ms - done));
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

test('with the doorbell a push is applied at once, and an idle agent asks Git nothing beyond the safety poll', async (t) => {
  const { repo, server, url } = await servedFleet(t);
  const bell = await hubDoorbell(t, repo);
  rendered(await hubPass(repo, { repo: bell.repo }));
  const agent = await startAgent(t, { url, notifyUrl: bell.server.url, safetyPollMs: 300_000 });
  await eventually(() => applied(agent) === '1', 'the first pass applied the branch');
  await eventually(() => gitRequests(server).pushes >= 2, 'its status and first heartbeat pushed');
  await eventually(() => bell.server.waiting() === 1, 'the agent holds a wait');
  await idle(agent, 10_000);
  await eventually(() => (bell.beacons.counts().get('m1') ?? 0) >= 2, 'a beacon came');
  const before = gitRequests(server);
  // Four minutes of idling: resyncs, beacons, drift watches; nothing of it is a Git request.
  await idle(agent, 240_000);
  assert.deepEqual(gitRequests(server), before, 'no read and no push in four idle minutes');
  await idle(agent, 60_000);
  await eventually(
    () => gitRequests(server).pushes > before.pushes,
    'the heartbeat, stretched to the safety poll',
  );
  const safety = gitRequests(server);
  assert.equal(safety.reads - before.reads, 1, 'the safety poll: one ls-refs at five minutes');
  assert.equal(safety.pushes - before.pushes, 1, 'one heartbeat push in five minutes');

  commitChange(repo, 'web a=2', (work) => writeFileSync(join(work, 'apps/shop/web.yaml'), configMap('2')));
  rendered(await hubPass(repo, { repo: bell.repo }));
  // The agent's clock stands still: only the doorbell can have made it look.
  await eventually(() => applied(agent) === '2', 'the push applied, rung in by the doorbell');
  assert.ok(gitRequests(server).reads - safety.reads <= 2, 'one refresh (an ls-refs and a fetch)');
});

test('with the doorbell down the agent falls back to its branch poll and still applies', async (t) => {
  const { repo, url } = await servedFleet(t);
  const bell = await hubDoorbell(t, repo);
  rendered(await hubPass(repo, { repo: bell.repo }));
  const agent = await startAgent(t, { url, notifyUrl: bell.server.url, safetyPollMs: 300_000 });
  await eventually(() => applied(agent) === '1', 'the first pass applied the branch');
  await idle(agent, 10_000);
  await bell.close();
  commitChange(repo, 'web a=2', (work) => writeFileSync(join(work, 'apps/shop/web.yaml'), configMap('2')));
  rendered(await hubPass(repo, { repo: bell.repo }));
  // A beacon fails within one beacon interval; the poll is back at 1 s from then.
  for (let s = 0; s < 30 && applied(agent) !== '2'; s++) await idle(agent, 1000, 1000);
  await eventually(() => applied(agent) === '2', 'applied by the branch poll');
});

test('a doorbell that takes beacons but never rings: the safety poll still finds the commit', async (t) => {
  const { repo, server, url } = await servedFleet(t);
  rendered(await hubPass(repo));
  // It never knows a head, so it holds every wait and rings for nothing; its beacons are answered.
  const liar = await startNotifyServer({
    port: 0,
    tokens: parseNotifyTokens('m1: the-m1-token\n', 'tokens.yaml'),
    head: () => undefined,
    setTimer: fakeClock().setTimer,
  });
  t.after(() => liar.close());
  const agent = await startAgent(t, { url, notifyUrl: liar.url, safetyPollMs: 60_000 });
  await eventually(() => applied(agent) === '1', 'the first pass applied the branch');
  await idle(agent, 10_000);
  commitChange(repo, 'web a=2', (work) => writeFileSync(join(work, 'apps/shop/web.yaml'), configMap('2')));
  rendered(await hubPass(repo));
  const before = gitRequests(server);
  await idle(agent, 40_000);
  // Time for a resync's pass to have gone to Git, if it went (it must not).
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.equal(applied(agent), '1', 'resyncs alone do not go to Git while the doorbell answers');
  assert.equal(gitRequests(server).reads, before.reads);
  await idle(agent, 20_000);
  await eventually(() => applied(agent) === '2', 'the safety poll found the commit');
});
