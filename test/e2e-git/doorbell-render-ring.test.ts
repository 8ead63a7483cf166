// A ring's cost with a render repository, over real Git: the fleet and render repositories
// served by git's http-backend (every request recorded), the hub's pass writing them, m1's
// agent opened as `gitfleet agent` opens it (openAgentRepo: its branch read from the render
// repository the bindings branch names) and waiting as it waits (agentWaiting, the doorbell).
// The doorbell is one the test rings by hand, so it can name any head: the head the hub
// pushed costs the render repository one read (a v2 fetch of that head, no ls-refs) and the
// fleet repository none; a head the server does not have, an older commit of the branch and
// another cluster's head are refused and the same refresh reads where the branch is, so the
// agent applies the branch's head; a commit beside the branch that fast-forwards it (the doorbell
// lied, and someone able to write the repository made it) is applied, and the next safety poll
// takes the agent back to the branch's head; a server without protocol v2 is read the v0 way, as
// before. The agent's clock is a fake one.
import { after, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { startNotifyServer } from '../../src/adapters/http/notify-server.js';
import { parseNotifyTokens } from '../../src/adapters/http/notify-tokens.js';
import { localHubRepo } from '../../src/adapters/remote/hub-repo.js';
import { agentWaiting } from '../../src/cli/commands/agent-doorbell.js';
import type { AgentPassResult } from '../../src/loops/agent/run-agent-pass.js';
import { openAgentRepo } from '../../src/cli/commands/agent-render-repo.js';
import { RenderRepositories } from '../../src/loops/hub/render-repositories.js';
import { silentLogger, type Logger } from '../../src/loops/runtime/logger.js';
import { startGitServer, type GitServer } from '../git-server/start-git-server.js';
import { fakeAgent, type FakeAgent } from '../loops/agent/fake-agent.js';
import { fakeClock } from '../loops/runtime/fake-clock.js';
import {
  commitChange,
  fleetRepoWith,
  hubPass,
  rendered,
  removeFleetRepos,
} from '../loops/hub/hub-fixture.js';
import { eventually } from '../support/eventually.js';
import { startDoorbellAgentLoop } from './doorbell-agent-loop.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeFleetRepos);
after(removeTempDirs);

const slow = { timeout: 120_000 };
const web = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'web' };
const configMap = (value: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: shop\ndata:\n  a: "${value}"\n`;
const cluster = (name: string) =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n  labels: { gitfleet.io/render-repository: r }\n`;

const policy = (name: string, clusters: string[]) =>
  `apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: { name: ${name}, namespace: shop }\nspec:\n  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap, name: ${name} }]\n  placement: { clusterAffinity: { clusterNames: [${clusters.join(', ')}] } }\n`;

/** The fleet (m1 and m2, their branches in render repository r) served beside r; the hub's pass over both. */
async function servedFleet(t: TestContext, opts: { v0Only?: boolean } = {}) {
  const repo = fleetRepoWith({ 'README.md': 'a fleet\n' }, { bare: true });
  const root = dirname(repo.path);
  const renderPath = join(root, 'render.git');
  execFileSync('git', ['init', '-q', '--bare', renderPath]);
  execFileSync('git', ['config', 'http.receivepack', 'true'], { cwd: repo.path });
  const server = await startGitServer({ root, v0Only: opts.v0Only === true });
  t.after(() => server.close());
  const renderUrl = server.url('render.git');
  commitChange(repo, 'the fleet', (work) => {
    const files: Record<string, string> = {
      'fleet.yaml': `apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: { name: fleet }\nspec:\n  renderRepositories:\n    - { name: r, url: "${renderUrl}" }\n`,
      'clusters/m1.yaml': cluster('m1'),
      'clusters/m2.yaml': cluster('m2'),
      'apps/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
      'apps/web.yaml': configMap('1'),
      'apps/policy.yaml': policy('web', ['m1', 'm2']),
      // m2 holds one more object, so its branch's commits are not m1's.
      'apps/other.yaml': configMap('m2').replace('name: web', 'name: other'),
      'apps/other-policy.yaml': policy('other', ['m2']),
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), text);
    }
  });
  const renders = new RenderRepositories({
    open: (url) => localHubRepo(url === renderUrl ? renderPath : url),
    log: silentLogger(),
  });
  const render = async (value: string) => {
    commitChange(repo, `web a=${value}`, (work) =>
      writeFileSync(join(work, 'apps/web.yaml'), configMap(value)),
    );
    rendered(await hubPass(repo, { renderRepositories: renders }));
  };
  rendered(await hubPass(repo, { renderRepositories: renders }));
  const headOf = (c: string) =>
    execFileSync('git', ['--git-dir', renderPath, 'rev-parse', `refs/heads/gitfleet/clusters/${c}`], {
      encoding: 'utf8',
    }).trim();
  return { server, url: server.url(basename(repo.path)), render, headOf, renderPath };
}

/**
 * Makes a commit on top of m1's branch head in the render repository, with the ConfigMap's value
 * changed, kept under refs/heads/side: a fast-forward of the branch that is not on it, as one
 * able to write the repository could make it. Returns its id.
 */
function commitBeside(renderPath: string, value: string): string {
  const work = tempDir('beside');
  execFileSync('git', ['clone', '-q', '-b', 'gitfleet/clusters/m1', renderPath, work]);
  const files = execFileSync('git', ['grep', '-l', 'name: web'], { cwd: work, encoding: 'utf8' })
    .trim()
    .split('\n');
  const path = files.find((f) => !f.includes('other'))!;
  const file = join(work, path);
  writeFileSync(file, readFileSync(file, 'utf8').replace(/a: "?1"?/, `a: "${value}"`));
  execFileSync('git', ['-c', 'user.name=x', '-c', 'user.email=x@x.invalid', 'commit', '-qam', 'beside'], {
    cwd: work,
  });
  execFileSync('git', ['push', '-q', renderPath, 'HEAD:refs/heads/side'], { cwd: work });
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: work, encoding: 'utf8' }).trim();
}

/** The upload-pack POSTs (ls-refs, fetches) each served repository saw. */
function reads(server: GitServer): { fleet: number; render: number } {
  const of = (repo: string) =>
    server.requests.filter((r) => r.method === 'POST' && r.path === `/${repo}/git-upload-pack`).length;
  return { fleet: of('fleet.git'), render: of('render.git') };
}

/** The upload-pack POSTs of each served repository since `before`. */
function readsSince(server: GitServer, before: { fleet: number; render: number }) {
  const now = reads(server);
  return { render: now.render - before.render, fleet: now.fleet - before.fleet };
}

// A safety poll of 20 s, due before the first resync (30 s) and once before the second; beacons a
// minute apart, so the doorbell is connected throughout (an answer within two beacon intervals).
const safetyPolled = { safetyPollMs: 20_000, beaconIntervalMs: 60_000 };

/** A doorbell the test rings: its head is whatever the last ring named. */
async function handRungDoorbell(t: TestContext, first: string) {
  let head = first;
  const server = await startNotifyServer({
    port: 0,
    tokens: parseNotifyTokens('m1: the-m1-token\n', 'tokens.yaml'),
    head: () => head,
    setTimer: fakeClock().setTimer,
  });
  t.after(() => server.close());
  return {
    server,
    ring: (next: string) => {
      head = next;
      server.moved('m1', next);
    },
    /** Changes the head the next wait is told, ringing no one. */
    say: (next: string) => void (head = next),
  };
}

/** Starts m1's agent as `gitfleet agent --repo <fleet URL> --notify-url …` wires it, on a fake cluster. */
async function startAgent(
  t: TestContext,
  opts: { url: string; notifyUrl: string; log: Logger; safetyPollMs?: number; beaconIntervalMs?: number },
) {
  const tokenFile = join(tempDir('ring'), 'token');
  writeFileSync(tokenFile, 'the-m1-token\n');
  const repo = await openAgentRepo({
    repo: opts.url,
    cluster: 'm1',
    branchPrefix: 'gitfleet/',
    cacheDir: tempDir('ring-cache'),
    log: opts.log,
  });
  const probe = fakeAgent();
  const doorbell = { url: opts.notifyUrl, tokenFile, safetyPollMs: opts.safetyPollMs ?? 300_000 };
  const settings = {
    cluster: 'm1',
    branchPrefix: 'gitfleet/',
    branchPollMs: 1000,
    beaconIntervalMs: opts.beaconIntervalMs ?? 10_000,
  };
  // The branch poll's probes answered and the loop's passes done, counted.
  const seen = { probes: 0, passes: 0 };
  const counted = Object.assign(Object.create(repo) as typeof repo, {
    probeSource: () => repo.probeSource!().finally(() => seen.probes++),
  });
  const waiting = await agentWaiting(
    counted,
    { ...settings, doorbell },
    { clock: probe.clock, log: opts.log },
  );
  const passed = waiting.passed;
  Object.assign(waiting, { passed: (r: AgentPassResult) => (passed(r), seen.passes++) });
  const agent = startDoorbellAgentLoop(t, { waiting, clock: probe.clock, fleetRepo: () => repo.fleetRepo() });
  return Object.assign(agent, { seen });
}

const applied = (agent: FakeAgent): string | undefined =>
  (agent.fake.peek(web)?.['data'] as Record<string, string> | undefined)?.['a'];

function recording(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) };
}

/** A started agent that applied the first render and holds a wait at the hand-rung doorbell. */
async function ready(
  t: TestContext,
  opts: { v0Only?: boolean; safetyPollMs?: number; beaconIntervalMs?: number } = {},
) {
  const fleet = await servedFleet(t, opts);
  const bell = await handRungDoorbell(t, fleet.headOf('m1'));
  const log = recording();
  const agent = await startAgent(t, {
    url: fleet.url,
    notifyUrl: bell.server.url,
    log,
    ...(opts.safetyPollMs !== undefined ? { safetyPollMs: opts.safetyPollMs } : {}),
    ...(opts.beaconIntervalMs !== undefined ? { beaconIntervalMs: opts.beaconIntervalMs } : {}),
  });
  await eventually(() => applied(agent) === '1', 'the first pass applied the branch');
  await eventually(() => bell.server.waiting() === 1, 'the agent holds a wait');
  // Rings are at least the branch poll apart (1 s): each case moves the agent's clock past it.
  const next = async () => {
    agent.clock.advance(2000);
    await eventually(() => bell.server.waiting() === 1, 'the agent holds a wait');
  };
  return { ...fleet, bell, log, agent, next };
}

test(
  'each ring naming the head the hub pushed costs the render repository one read and the fleet repository none',
  slow,
  async (t) => {
    const { server, render, headOf, bell, agent, next, log } = await ready(t);
    for (const value of ['2', '3', '4']) {
      await next();
      await render(value);
      const before = reads(server);
      bell.ring(headOf('m1'));
      await eventually(() => applied(agent) === value, `a=${value} applied, rung in by the doorbell`);
      assert.deepEqual(
        readsSince(server, before),
        { render: 1, fleet: 0 },
        `ring ${value}: one v2 fetch of the render repository`,
      );
      // The doorbell's first answer at the start named the head the first pass was reading: it
      // cost nothing (refresh-gate.ts), so the start's ls-refs and fetch and the rings are all.
      assert.equal(
        reads(server).render,
        2 + Number(value) - 1,
        `ring ${value}: the start's 2 reads and 1 a ring`,
      );
    }
    assert.ok(!log.lines.some((l) => l.includes('was not taken')), log.lines.join('\n'));
  },
);

test(
  'after a push that moves every branch, the safety poll that finds the head the ring fetched reads the fleet repository nothing',
  slow,
  async (t) => {
    const { server, render, headOf, bell, agent, next } = await ready(t, safetyPolled);
    await next();
    await render('2');
    const before = reads(server);
    const passes = agent.seen.passes;
    bell.ring(headOf('m1'));
    await eventually(() => applied(agent) === '2' && agent.seen.passes > passes, 'a=2 applied, rung in');
    // The safety poll comes due: its ls-refs finds the head the ring fetched.
    const probes = agent.seen.probes;
    agent.clock.advance(21_000);
    await eventually(() => agent.seen.probes > probes, "the safety poll's ls-refs answered");
    // The resync (every 30 s) runs a pass: it refreshes from Git only if the poll opened the gate.
    const resynced = agent.seen.passes;
    agent.clock.advance(8_000);
    await eventually(() => agent.seen.passes > resynced, 'the resync pass done');
    assert.deepEqual(
      readsSince(server, before),
      { render: 2, fleet: 0 },
      // Before: the poll said "moved" (its last answer was the old head), and the refresh that
      // found the branch where the ring left it read the bindings branch: an ls-refs and a fetch.
      "the ring's fetch and the safety poll's ls-refs; no read of the fleet repository",
    );
  },
);

test(
  'a safety poll that finds a move the doorbell did not ring fetches the head it found alone, as a ring does',
  slow,
  async (t) => {
    const { server, render, agent, next } = await ready(t, safetyPolled);
    await next();
    await render('2');
    const before = reads(server);
    const passes = agent.seen.passes;
    agent.clock.advance(21_000);
    await eventually(
      () => applied(agent) === '2' && agent.seen.passes > passes,
      'a=2 applied, found by the poll',
    );
    assert.deepEqual(
      readsSince(server, before),
      // Before, the refresh asked where the branch is first: an ls-refs more.
      { render: 2, fleet: 0 },
      "the poll's ls-refs and a v2 fetch of the head it found",
    );
  },
);

test(
  "a ring naming a head that is not the branch's is refused, said once, and the branch's head is applied",
  slow,
  async (t) => {
    const { server, render, headOf, bell, agent, next, log } = await ready(t);
    const older = headOf('m1');
    const cases = [
      { value: '2', named: () => 'f'.repeat(40), why: /not our ref/, reads: 3 },
      { value: '3', named: () => older, why: /not a fast-forward/, reads: 2 },
      { value: '4', named: () => headOf('m2'), why: /not a fast-forward/, reads: 3 },
    ];
    for (const c of cases) {
      await next();
      await render(c.value);
      const before = reads(server).render;
      const lines = log.lines.length;
      bell.ring(c.named());
      await eventually(() => applied(agent) === c.value, `a=${c.value}, the branch's head, applied`);
      const said = log.lines.slice(lines).filter((l) => l.includes('was not taken'));
      assert.equal(said.length, 1, `${c.value}: said once: ${said.join('\n')}`);
      assert.match(said[0]!, c.why);
      // The refused head's fetch (none for a commit the mirror holds), then ls-refs and the fetch of the branch.
      assert.equal(reads(server).render - before, c.reads);
    }
  },
);

test('on a server without protocol v2 a ring reads the branch the v0 way, as before', slow, async (t) => {
  const { server, render, headOf, bell, agent, next, log } = await ready(t, { v0Only: true });
  await next();
  await render('2');
  const from = server.requests.length;
  bell.ring(headOf('m1'));
  await eventually(() => applied(agent) === '2', 'a=2 applied');
  const seen = server.requests.slice(from).filter((r) => r.path.startsWith('/render.git/'));
  // The ls-refs a v0 server does not understand, its advertisement, the v0 fetch: no fetch of the head alone.
  assert.deepEqual(
    seen.map((r) => `${r.method} ${r.path.slice('/render.git/'.length)}${r.query}`),
    ['POST git-upload-pack', 'GET info/refs?service=git-upload-pack', 'POST git-upload-pack'],
  );
  assert.ok(!log.lines.some((l) => l.includes('was not taken')), log.lines.join('\n'));
});

test(
  "a ring naming a fast-forward beside the branch (the doorbell lied) is applied, and the next safety poll takes the agent back to the branch's head",
  slow,
  async (t) => {
    const { renderPath, headOf, bell, agent, next } = await ready(t, safetyPolled);
    const branch = headOf('m1');
    const beside = commitBeside(renderPath, 'beside');
    await next();
    bell.ring(beside);
    await eventually(() => applied(agent) === 'beside', 'the commit the doorbell named applied');
    // The doorbell says the branch's head again from now on, ringing no one; the agent's wait holds.
    bell.say(branch);
    agent.clock.advance(21_000);
    await eventually(
      () => applied(agent) === '1',
      "the safety poll took the agent back to the branch's head",
    );
    assert.equal(headOf('m1'), branch, 'the branch itself never moved');
  },
);
