// Issue #27 point 8 as the issue saw it, shrunk for test time: a hub with --leader-elect (a
// real Lease in a test cluster, short timings) renders a fleet of 20 WorkerPools whose
// GetReplicas, ReviseReplica and AggregateStatus scripts take about 0.3 s each, while /healthz
// is probed every 200 ms with a one-second timeout (a kubelet probe's default) and the Lease is
// read every second. The pass must not block the event loop: every probe is answered, the Lease
// is renewed during the pass and stays this hub's, and the pass is written. The blocking version
// ran each stage's scripts back to back (ReviseReplica about 5 s, AggregateStatus about 6 s,
// past the 3 s renew deadline): probes went unanswered and the pass lost its Lease.
// Counts, not times, are asserted: probes unanswered, renewals seen, holders seen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { statusBranchFiles } from '../../src/core/status/status-branch.js';
import { git, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { commitStatusBranch } from '../loops/hub/hub-fixture.js';
import { slowLuaFleetFiles } from '../loops/hub/slow-lua-fleet.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';
import { startProcess, type Process } from './lease-processes.js';

const run = promisify(execFile);
const leaseName = 'gitfleet-hub';
const POOLS = 20;
const clusters = ['east', 'west'];

/** GET /healthz with a one-second timeout: true when it answered 200 in time. */
function probe(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = get(`${url}/healthz`, { timeout: 1000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(false));
  });
}

/** The Lease's holder and renew time, read with kubectl (asynchronously: the probes keep their timers). */
async function readLease(namespace: string): Promise<{ holder: string; renewed: string } | undefined> {
  const bin = process.env['GITFLEET_K8S_BIN']!;
  const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
  const args = [
    '--kubeconfig',
    kubeconfig,
    '--context',
    'member1',
    'get',
    'lease',
    leaseName,
    '-n',
    namespace,
  ];
  const out = await run(join(bin, 'kubectl'), [...args, '-o', 'json']).catch(() => undefined);
  if (out === undefined) return undefined;
  const spec = (JSON.parse(out.stdout) as { spec?: { holderIdentity?: string; renewTime?: string } }).spec;
  return { holder: spec?.holderIdentity ?? '', renewed: spec?.renewTime ?? '' };
}

test('a hub pass of slow GetReplicas, ReviseReplica and AggregateStatus scripts answers every /healthz probe and keeps its Lease', async () => {
  const kc = testKubeConfig();
  const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
  await inNamespace(kc, 'hub-lua-lease', async (namespace) => {
    const repo = join(tempDir('hub-lua-lease'), 'fleet');
    for (const [path, content] of Object.entries(
      slowLuaFleetFiles({ clusters, pools: POOLS, slowGetReplicas: true }),
    )) {
      mkdirSync(join(repo, path, '..'), { recursive: true });
      writeFileSync(join(repo, path), content);
    }
    await git(repo, ['-c', 'init.defaultBranch=main', 'init', '-q']);
    await git(repo, ['add', '-A']);
    await git(repo, ['commit', '-q', '-m', 'pools']);
    // A status report from one cluster, so that the pass aggregates every pool's status.
    const status = statusBranchFiles({
      cluster: 'east',
      appliedCommit: null,
      clusterStatus: { conditions: [{ type: 'Ready', status: 'True' }] },
      objects: [],
    });
    await commitStatusBranch(
      { work: repo, path: repo, gitdir: join(repo, '.git'), bare: false },
      'east',
      status,
    );
    let hub: Process | undefined;
    const probes = { answered: 0, unanswered: 0 };
    const renewals = new Set<string>();
    const holders = new Set<string>();
    let watching = true;
    try {
      hub = startProcess('hub', [
        ...['hub', '--repo', repo, '--interval', '1m', '--metrics-addr', '127.0.0.1:0'],
        ...['--lua-call-timeout', '5s', '--leader-elect', '--leader-elect-kubeconfig', kubeconfig],
        ...['--leader-elect-resource-namespace', namespace, '--leader-elect-lease-duration', '4s'],
        ...['--leader-elect-renew-deadline', '3s', '--leader-elect-retry-period', '1s'],
      ]);
      const h = hub;
      const served = await h.waitFor(/serving \/metrics, \/healthz and \/readyz on (http:\/\/\S+)/);
      const url = /(http:\/\/\S+)/.exec(served.text)![1]!.replace(/\/$/, '');
      const leading = await h.waitFor(/: leading as /);
      const from = h.lines().indexOf(leading);
      const probing = (async () => {
        while (watching) {
          if (await probe(url)) probes.answered++;
          else probes.unanswered++;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })();
      const leaseWatch = (async () => {
        while (watching) {
          const lease = await readLease(namespace);
          if (lease) {
            holders.add(lease.holder);
            renewals.add(lease.renewed);
          }
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      })();
      const passed = await h.waitFor(/^\S+Z hub: rendered /, 180_000, from);
      watching = false;
      await Promise.all([probing, leaseWatch]);
      const during = h.lines().slice(from, h.lines().indexOf(passed) + 1);
      assert.equal(
        during.filter((l) => /lost the lease|standing by|no longer leads/.test(l.text)).length,
        0,
        'the pass kept its lease',
      );
      assert.ok(probes.answered > 0, 'probes were made');
      assert.equal(
        probes.unanswered,
        0,
        `${probes.unanswered} of ${probes.answered + probes.unanswered} /healthz probes went unanswered`,
      );
      assert.equal(holders.size, 1, `one holder all along: ${[...holders].join(', ')}`);
      assert.ok(
        renewals.size > 1,
        `the lease was renewed during the pass (${renewals.size} renew times seen)`,
      );
      const record = await git(repo, [
        'show',
        'refs/heads/gitfleet/bindings:shop/WorkerPool.example.com/pool-0.yaml',
      ]);
      assert.match(record, /clusters: 2/, 'AggregateStatus ran');
      console.log(
        `probes answered ${probes.answered}, renew times seen ${renewals.size}, pass: ${passed.text}`,
      );
    } catch (error) {
      if (hub) console.log(hub.output().split('\n').slice(-40).join('\n'));
      throw error;
    } finally {
      watching = false;
      await hub?.stop('SIGTERM');
      removeTempDirs();
    }
  });
});
