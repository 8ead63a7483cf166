// The traffic model's keyed heartbeats, checked against what the loops really send: a cluster
// whose registration names a signing key (gitfleet.io/signing-key) has its heartbeats' signatures
// checked by the hub's cluster monitor (signed-liveness.ts), so the hub's mirror of a remote
// fleet repository fetches a heartbeat of it that moved (hub-remote-setup.ts quietHeartbeats):
// at most one fetch (two requests) a poll. A hub and an agent signing its commits run as
// processes against a server that records every request; the idle reads are compared with the
// model (`keyedClusters`), at the periods the loops really ran, as budget-measured.test.ts does.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSshKey } from '../../src/adapters/signing/generate-ssh-key.js';
import { modelTraffic } from '../../src/core/budget/model-traffic.js';
import { git, makeServedRepo, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startGitServer } from '../git-server/start-git-server.js';
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
  "A keyed cluster's heartbeats cost the hub a fetch a poll: the idle hub reads within 1.5x of what the model predicts with the cluster keyed.",
  { timeout: 300_000 },
  async (t) => {
    const ns = uniqueName('budget-keyed');
    const cluster = uniqueName('budget-keyed');
    const key = generateSshKey(`${cluster}@gitfleet.invalid`);
    const keys = tempDir('budget-keyed-keys');
    writeFileSync(join(keys, 'agent'), key.privateKey, { mode: 0o600 });
    const root = tempDir('budget-keyed-served');
    makeServedRepo(root, 'fleet.git');
    symlinkSync(join(root, 'fleet.git'), join(root, 'agent.git'));
    const server = await startGitServer({ root });
    const url = server.url('fleet.git');
    const work = tempDir('budget-keyed-work');
    await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
    for (const [path, content] of Object.entries(fleetFiles(ns, cluster, key.publicLine))) {
      mkdirSync(join(work, path, '..'), { recursive: true });
      writeFileSync(join(work, path), content);
    }
    await git(work, ['add', '-A']);
    await git(work, ['commit', '-q', '-m', 'fleet']);
    await git(work, ['push', '-q', url, 'HEAD:main']);
    const hub = startCli(['hub', '--repo', url, ...hubFlags], tempDir('budget-keyed-hub-cache'));
    const agent = startCli(
      [
        ...['agent', '--repo', server.url('agent.git'), '--cluster', cluster, '--context', 'member1'],
        ...['--no-lease', '--signing-key', join(keys, 'agent')],
        ...['--kubeconfig', process.env['GITFLEET_TEST_KUBECONFIG']!, ...agentFlags],
      ],
      tempDir('budget-keyed-agent-cache'),
    );
    try {
      // A loaded machine starts a signing agent slowly: its lines say where it was.
      await eventually(
        'the agent to apply its branch and write its status',
        async () => (agent.lines.some((l) => /applied .*status written/.test(l)) ? true : undefined),
        300_000,
      ).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}; the agent said: ${agent.lines.slice(-5).join(' | ')}`);
      });
      await new Promise((resolve) => setTimeout(resolve, 4000));
      const from = Math.ceil(Date.now() / 1000) * 1000;
      await new Promise((resolve) => setTimeout(resolve, from + 20_000 - Date.now()));
      const to = Math.floor(Date.now() / 1000) * 1000;
      const window = windowOf(server.requests, from, to);
      const m = measure(window.seen, window.seconds);
      const ran = {
        hub: 2 + m.answer.hubRead,
        agent: 5,
        poll: 0.5 + m.answer.agentRead,
        heartbeat: 2 + m.answer.push,
      };
      const shape = { clusters: 1, templates: 2, fleetPushesPerHour: 0, statusChangesPerClusterPerHour: 0 };
      const keyed = modelTraffic({ ...shape, keyedClusters: 1 }, settingsOf(ran)).repositories[0]!;
      const plain = modelTraffic(shape, settingsOf(ran)).repositories[0]!;
      t.diagnostic(
        `over ${m.seconds.toFixed(1)} s: hub ${m.hubReads} reads (${(m.hubReads / m.seconds).toFixed(2)}/s), agent ${m.agentReads}; ` +
          `predicted for the hub ${keyed.by.hub.readsPerSecond.toFixed(2)}/s keyed, ${plain.by.hub.readsPerSecond.toFixed(2)}/s if heartbeats cost no fetch`,
      );
      withinOneAndAHalf('hub reads/s', m.hubReads / m.seconds, keyed.by.hub.readsPerSecond);
      withinOneAndAHalf('reads/s', (m.hubReads + m.agentReads) / m.seconds, keyed.total.readsPerSecond);
      withinOneAndAHalf('pushes/min', (60 * m.pushes) / m.seconds, keyed.total.pushesPerMinute);
      assert.equal(m.hubPushes, 0, 'an idle hub pushes nothing');
    } finally {
      hub.child.kill('SIGTERM');
      agent.child.kill('SIGTERM');
      await Promise.all([hub.exited, agent.exited]);
      await server.close();
      kubectl(['delete', 'namespace', ns, '--wait=false', '--ignore-not-found']);
    }
  },
);
