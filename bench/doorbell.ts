// Scenario doorbell: what the doorbell buys an agent on a smart-HTTP remote (git's
// http-backend, test/git-server/start-git-server.ts, which records every request). One agent
// follows its cluster branch as `gitfleet agent` wires it (cli/commands/agent-doorbell.ts):
// with the branch poll alone (--branch-poll 1s), then with the hub's doorbell
// (cli/commands/hub-doorbell.ts, --safety-poll 5m). The "hub" commits the cluster branch in the
// served repository and publishes through the doorbell's repository, as a hub pass does; the
// latency runs from the end of that publish to the agent's mirror holding the commit (the
// refresh a pass starts with; what the pass then applies is the apply scenario's). Then the
// agent idles and the Git requests it makes are counted, scaled to a minute.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRef } from '../src/adapters/git/read-ref.js';
import { remoteHubRepo } from '../src/adapters/remote/remote-hub-repo.js';
import { agentWaiting, type AgentDoorbellOptions } from '../src/cli/commands/agent-doorbell.js';
import { startHubDoorbell } from '../src/cli/commands/hub-doorbell.js';
import { agentMirrorRefs } from '../src/loops/agent/agent-repo.js';
import { systemClock } from '../src/loops/runtime/clock.js';
import { silentLogger } from '../src/loops/runtime/logger.js';
import { localHubRepo } from '../src/adapters/remote/hub-repo.js';
import { makeServedRepo } from '../test/git-server/git-cli.js';
import { startGitServer, type GitServer } from '../test/git-server/start-git-server.js';
import { commitClusterBranch } from '../test/support/cluster-branch.js';
import type { Scenario, ScenarioReport } from './lib/report.js';
import { spread } from './lib/stats.js';

interface ModeResult {
  latencyMs: number[];
  p50: number;
  p99: number;
  idleReadsPerMinute: number;
  idlePushesPerMinute: number;
}

const configMap = (n: number) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'web', namespace: 'shop' },
  data: { n: String(n) },
});

function percentile(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function reads(server: GitServer): { reads: number; pushes: number } {
  const posts = server.requests.filter((r) => r.method === 'POST');
  return {
    reads: posts.filter((r) => r.path.endsWith('/git-upload-pack')).length,
    pushes: posts.filter((r) => r.path.endsWith('/git-receive-pack')).length,
  };
}

/** One agent, the branch poll alone or with the doorbell: `pushes` latencies, then `idleMs` counted. */
async function measure(opts: { withDoorbell: boolean; pushes: number; idleMs: number }): Promise<ModeResult> {
  const root = mkdtempSync(join(tmpdir(), 'gitfleet-bench-doorbell-'));
  const served = makeServedRepo(root, 'fleet.git');
  const server = await startGitServer({ root });
  const clock = systemClock();
  writeFileSync(join(root, 'tokens.yaml'), 'm1: bench-token\n');
  writeFileSync(join(root, 'token'), 'bench-token\n');
  const bell = await startHubDoorbell(
    { addr: '127.0.0.1:0', tokensFile: join(root, 'tokens.yaml'), branchPrefix: 'gitfleet/' },
    localHubRepo(served),
    { clock, log: silentLogger(), serving: () => true },
  );
  let n = 0;
  await commitClusterBranch(served, 'm1', [configMap(n++)]);
  const mirror = remoteHubRepo({
    url: server.url('fleet.git'),
    cacheDir: join(root, 'cache'),
    mirrorKey: 'agent m1',
    sourceRef: 'gitfleet/clusters/m1',
    branchPrefix: 'gitfleet/',
    onlyRefs: agentMirrorRefs('gitfleet/', 'm1'),
  });
  const doorbell: AgentDoorbellOptions = {
    url: bell.server.url,
    tokenFile: join(root, 'token'),
    safetyPollMs: 300_000,
  };
  const waiting = await agentWaiting(
    mirror,
    {
      cluster: 'm1',
      branchPrefix: 'gitfleet/',
      branchPollMs: 1000,
      beaconIntervalMs: 10_000,
      ...(opts.withDoorbell ? { doorbell } : {}),
    },
    { clock, log: silentLogger() },
  );
  // A pass's refresh, one at a time, as the agent's work queue runs them.
  let running: Promise<void> = waiting.repo.refresh();
  let queued = false;
  const look = (): void => {
    if (queued) return;
    queued = true;
    running = running.then(async () => {
      queued = false;
      await waiting.repo.refresh().catch(() => undefined);
    });
  };
  await running;
  const triggers = waiting.triggers();
  for (const t of triggers) await t.start(look);
  try {
    await sleep(12_000); // connected, and a beacon answered
    const latencyMs: number[] = [];
    for (let i = 0; i < opts.pushes; i++) {
      await sleep(300 + Math.random() * 1000);
      const commit = await commitClusterBranch(served, 'm1', [configMap(n++)]);
      await bell.repo.publish([]);
      const start = performance.now();
      while ((await readRef(mirror.gitdir, 'refs/heads/gitfleet/clusters/m1')) !== commit) await sleep(5);
      latencyMs.push(performance.now() - start);
    }
    await sleep(2000);
    const before = reads(server);
    await sleep(opts.idleMs);
    const after = reads(server);
    const perMinute = (x: number) => Math.round((x * 60_000 * 10) / opts.idleMs) / 10;
    return {
      latencyMs: latencyMs.map(Math.round),
      p50: percentile(latencyMs, 50),
      p99: percentile(latencyMs, 99),
      idleReadsPerMinute: perMinute(after.reads - before.reads),
      idlePushesPerMinute: perMinute(after.pushes - before.pushes),
    };
  } finally {
    for (const t of triggers) await t.stop();
    await bell.close();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export const doorbellScenario: Scenario = {
  name: 'doorbell',
  summary: 'push → fetched with and without the hub doorbell, and the Git reads of an idle agent both ways',
  run: async (opts): Promise<ScenarioReport> => {
    const shape = opts.quick ? { pushes: 10, idleMs: 20_000 } : { pushes: 30, idleMs: 60_000 };
    opts.log(`doorbell: ${shape.pushes} pushes, ${shape.idleMs / 1000} s idle, each way`);
    const poll = await measure({ ...shape, withDoorbell: false });
    const bell = await measure({ ...shape, withDoorbell: true });
    return {
      scenario: 'doorbell',
      status: 'ran',
      note:
        `push → fetched: branch poll 1 s P50 ${poll.p50} ms, P99 ${poll.p99} ms; doorbell P50 ${bell.p50} ms, P99 ${bell.p99} ms. ` +
        `Idle Git reads a minute: ${poll.idleReadsPerMinute} polling, ${bell.idleReadsPerMinute} with the doorbell (safety poll 5 m)`,
      parameters: { ...shape, branchPollMs: 1000, safetyPollMs: 300_000 },
      contenders: [
        { name: 'with the doorbell', side: 'gitfleet', ...spread(bell.latencyMs), peakRssMiB: null },
        { name: 'branch poll alone', side: 'gitfleet', ...spread(poll.latencyMs), peakRssMiB: null },
      ],
      ratios: [],
      details: { poll, doorbell: bell },
    };
  },
};

// Run by itself: `node build/bench/doorbell.js [--quick]` prints the report as JSON.
if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const report = await doorbellScenario.run({ quick, runs: 1, log: (l) => process.stderr.write(`${l}\n`) });
  console.log(JSON.stringify(report, null, 2));
}
