// The traffic model checked against what the loops really send: a hub and an agent run as
// processes, as users run them, against a smart-HTTP server that records every request and a
// real member cluster; once the agent has applied its branch and written its status, the
// requests of a stretch of idle steady state are counted by kind and compared with what
// `modelTraffic` (the model `gitfleet budget` prints) predicts for the same settings.
//
// Honest under load: the branch poll, the heartbeat and the hub's poll each wait their interval
// from the end of their last request, so on a busy machine every period is the interval plus
// how long a request took. The model is checked at the periods the loops really ran (the
// interval plus the mean time the server took to answer that loop's requests, measured in the
// same window), the window is the server's own clock from its first to its last second, and
// the model's count per period is what must hold within 1.5x; `gitfleet budget`'s JSON is
// checked to print the very model, at the nominal flags.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, makeServedRepo, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startGitServer } from '../git-server/start-git-server.js';
import { modelTraffic } from '../../src/core/budget/model-traffic.js';
import { runCli } from '../cli/run-cli.js';
import { kubectl } from './agent-fixture.js';
import {
  agentFlags,
  fleetFiles,
  hubFlags,
  measure,
  settingsOf,
  startCli,
  windowOf,
  withinOneAndAHalf,
} from './budget-measure.js';
import { eventually, uniqueName } from './test-clusters.js';

after(removeTempDirs);

test(
  'An idle hub and agent, run as processes, send within 1.5x of the reads a second and pushes a minute `gitfleet budget` predicts for their settings.',
  { timeout: 300_000 },
  async (t) => {
    const ns = uniqueName('budget');
    const cluster = uniqueName('budget');
    const root = tempDir('budget-served');
    makeServedRepo(root, 'fleet.git');
    // The agent reaches the same repository by another name, so its requests tell from the hub's.
    symlinkSync(join(root, 'fleet.git'), join(root, 'agent.git'));
    const server = await startGitServer({ root });
    const url = server.url('fleet.git');
    const work = tempDir('budget-work');
    await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
    for (const [path, content] of Object.entries(fleetFiles(ns, cluster))) {
      mkdirSync(join(work, path, '..'), { recursive: true });
      writeFileSync(join(work, path), content);
    }
    await git(work, ['add', '-A']);
    await git(work, ['commit', '-q', '-m', 'fleet']);
    await git(work, ['push', '-q', url, 'HEAD:main']);
    // What `budget` predicts for exactly these flags, read from the same repository.
    const predicted = await runCli([
      ...['budget', '--repo', url, '--forge', 'generic', '--dashboards', '0', '-o', 'json'],
      ...hubFlags,
      ...['--agent-interval', '5s', '--branch-poll', '500ms', '--cluster-lease-duration', '8s'],
    ]);
    assert.equal(predicted.code, 0, predicted.stderr);
    const [fleetRepo] = (
      JSON.parse(predicted.stdout) as { repositories: { readsPerSecond: number; pushesPerMinute: number }[] }
    ).repositories;
    // At debug the pass that only records the agent's status prints its one line (waited for below).
    const hub = startCli(
      ['hub', '--repo', url, ...hubFlags, '--log-level', 'debug'],
      tempDir('budget-hub-cache'),
    );
    const agent = startCli(
      [
        ...[
          'agent',
          '--repo',
          server.url('agent.git'),
          '--cluster',
          cluster,
          '--context',
          'member1',
          '--no-lease',
        ],
        ...['--kubeconfig', process.env['GITFLEET_TEST_KUBECONFIG']!, ...agentFlags],
      ],
      tempDir('budget-agent-cache'),
    );
    try {
      await eventually('the agent to apply its branch and write its status', async () =>
        agent.lines.some((l) => /applied .*status written/.test(l)) ? true : undefined,
      );
      // `budget` prints the model itself, at the flags as given.
      const shape = { clusters: 1, templates: 2, fleetPushesPerHour: 0, statusChangesPerClusterPerHour: 0 };
      const nominal = modelTraffic(shape, settingsOf({ hub: 2, agent: 5, poll: 0.5, heartbeat: 2 }))
        .repositories[0]!;
      assert.equal(fleetRepo!.readsPerSecond, Math.round(nominal.total.readsPerSecond * 1000) / 1000);
      assert.equal(fleetRepo!.pushesPerMinute, Math.round(nominal.total.pushesPerMinute * 100) / 100);
      // Let the hub render from that status, then count a stretch where nothing changes: whole
      // seconds of the server's clock, the one the loops' timers run on.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      const from = Math.ceil(Date.now() / 1000) * 1000;
      await new Promise((resolve) => setTimeout(resolve, from + 20_000 - Date.now()));
      const to = Math.floor(Date.now() / 1000) * 1000;
      const window = windowOf(server.requests, from, to);
      const m = measure(window.seen, window.seconds);
      // The periods the loops ran at: each waits its interval from the end of its last request.
      const ran = {
        hub: 2 + m.answer.hubRead,
        agent: 5,
        poll: 0.5 + m.answer.agentRead,
        heartbeat: 2 + m.answer.push,
      };
      const model = modelTraffic(shape, settingsOf(ran)).repositories[0]!;
      t.diagnostic(
        `over ${m.seconds.toFixed(1)} s: hub ${m.hubReads} reads, agent ${m.agentReads} reads, ${m.pushes} pushes; ` +
          `periods as run: hub ${ran.hub.toFixed(2)} s, poll ${ran.poll.toFixed(2)} s, heartbeat ${ran.heartbeat.toFixed(2)} s; ` +
          `predicted ${model.total.readsPerSecond.toFixed(2)} reads/s, ${model.total.pushesPerMinute.toFixed(1)} pushes/min ` +
          `(at the nominal periods ${fleetRepo!.readsPerSecond}, ${fleetRepo!.pushesPerMinute})`,
      );
      withinOneAndAHalf('hub reads/s', m.hubReads / m.seconds, model.by.hub.readsPerSecond);
      withinOneAndAHalf('agent reads/s', m.agentReads / m.seconds, model.by.agents.readsPerSecond);
      withinOneAndAHalf('reads/s', (m.hubReads + m.agentReads) / m.seconds, model.total.readsPerSecond);
      withinOneAndAHalf('pushes/min', (60 * m.pushes) / m.seconds, model.total.pushesPerMinute);
      assert.equal(m.hubPushes, 0, 'an idle hub pushes nothing');

      // One source push: the hub renders and pushes the cluster branch, the agent fetches and
      // applies it and pushes its status, the hub records that status in the bindings.
      writeFileSync(
        join(work, 'apps/settings.yaml'),
        fleetFiles(ns, cluster)['apps/settings.yaml']!.replace('info', 'debug'),
      );
      await git(work, ['commit', '-qam', 'debug']);
      const sha = (await git(work, ['rev-parse', 'HEAD'])).trim().slice(0, 7);
      const seen = hub.lines.length;
      // Counted from after the test's own push (an advertisement and a push): none of it is gitfleet's.
      await git(work, ['push', '-q', url, 'HEAD:main']);
      const change = server.requests.length;
      await eventually('the hub to record the applied commit in the bindings', async () => {
        const renders = hub.lines.slice(seen).filter((l) => l.includes(`rendered refs/heads/main ${sha}`));
        return renders.length >= 2 ? true : undefined;
      });
      const perChange = measure(server.requests.slice(change), 1);
      const hubFetches = server.requests
        .slice(change)
        .filter((r) => r.method === 'POST' && r.path === '/fleet.git/git-upload-pack').length;
      const { perFleetPush, statusClusters, branchClusters } = modelTraffic(
        { clusters: 1, templates: 2, fleetPushesPerHour: 0, statusChangesPerClusterPerHour: 0 },
        settingsOf({ hub: 2, agent: 5, poll: 0.5, heartbeat: 2 }),
      ).repositories[0]!;
      t.diagnostic(`one source push: ${perChange.hubPushes} hub pushes, ${hubFetches} hub fetch requests`);
      // The model's pushes per source push less the agents' status: the render and the bindings.
      withinOneAndAHalf(
        'hub pushes per source push',
        perChange.hubPushes,
        perFleetPush.pushes - statusClusters,
      );
      // Its reads less the agents' (a pass's ls-refs and fetch each): the hub's two fetches.
      withinOneAndAHalf(
        'hub fetch requests per source push',
        hubFetches,
        perFleetPush.reads - 2 * branchClusters,
      );
    } finally {
      hub.child.kill('SIGTERM');
      agent.child.kill('SIGTERM');
      await Promise.all([hub.exited, agent.exited]);
      await server.close();
      kubectl(['delete', 'namespace', ns, '--wait=false', '--ignore-not-found']);
    }
  },
);
