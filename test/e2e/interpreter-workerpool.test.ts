// End to end with a custom workload Karmada's built-in interpreter knows nothing of: the
// WorkerPool CRD of examples/interpreter-fleet and its ResourceInterpreterCustomization,
// driven the way a user drives gitfleet: a fleet repository, `gitfleet hub` and one
// `gitfleet agent` per test cluster running as long-lived processes, and kubectl.
//
// What Karmada does with each script, and so what is checked here:
// - GetReplicas + ReviseReplica: the pool's spec.workers are divided by the placement's static
//   weights and each cluster's copy gets its share (pkg/controllers/binding/common.go ensureWork);
// - GetDependencies: the ConfigMap its pod template names follows it (propagateDeps);
// - InterpretHealth + InterpretStatus: the member object's health and reflected status
//   (pkg/resourceinterpreter/customized/declarative/configurable.go), on the status branch;
// - AggregateStatus: the template's status summed over the clusters, in the binding record
//   (Karmada writes it into the template's .status, pkg/controllers/status/common.go);
// - Retain: a field the member cluster's controller writes survives the agent's next pass
//   (pkg/util/objectwatcher/objectwatcher.go retainClusterFields), while a field gitfleet owns
//   is corrected.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { deleteNamespaceEverywhere, kubectl } from '../kube/agent-fixture.js';
import { eventually, uniqueName } from '../kube/test-clusters.js';
import { startFleet, type RunningFleet } from '../support/running-fleet.js';

const repoRoot = join(new URL('.', import.meta.url).pathname, '../../..');
const example = join(repoRoot, 'examples/interpreter-fleet');
const cli = join(repoRoot, 'bin/gitfleet.js');
const ns = uniqueName('interp');
const slow = { timeout: 600_000 };
let fleet: RunningFleet | undefined;
let repo: string;

// The example fleet examples/interpreter-fleet, with its two clusters renamed to the test
// clusters and its namespace to this test's own.
function fleetFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(example, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.yaml')) {
        files[path] = readFileSync(join(example, path), 'utf8')
          .replaceAll('us-workers', 'member1')
          .replaceAll('eu-workers', 'member2')
          .replaceAll('namespace: shop', `namespace: ${ns}`)
          .replaceAll('name: shop', `name: ${ns}`);
      }
    }
  };
  walk('');
  return files;
}

const pool = (context: string) =>
  JSON.parse(kubectl(['get', 'workerpool', 'order-workers', '-n', ns, '-o', 'json'], { context })) as {
    spec: { workers: number; draining: boolean };
  };

// The pool's ObjectStatus record on a cluster's status branch (core/status/status-branch.ts).
async function poolRecord(cluster: string): Promise<string> {
  try {
    return await git(repo, [
      'show',
      `refs/heads/gitfleet/status/${cluster}:objects/${ns}/WorkerPool.example.com/order-workers.yaml`,
    ]);
  } catch {
    return '';
  }
}

before(async () => {
  repo = join(tempDir('interp-repo'), 'fleet');
  mkdirSync(repo, { recursive: true });
  await git(repo, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  for (const [path, content] of Object.entries(fleetFiles())) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  await git(repo, ['add', '-A']);
  await git(repo, ['commit', '-q', '-m', 'a divided WorkerPool']);
  const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
  fleet = startFleet(repo, ['member1', 'member2'], kubeconfig);
});

after(async () => {
  await fleet?.stop();
  deleteNamespaceEverywhere(ns);
  removeTempDirs();
});

test(
  'the WorkerPool is divided 3:2 by its GetReplicas and ReviseReplica scripts, and its ConfigMap follows it',
  slow,
  async () => {
    const workers = await eventually('the pool runs on both clusters', async () => {
      try {
        return [pool('member1').spec.workers, pool('member2').spec.workers];
      } catch {
        return undefined;
      }
    });
    assert.deepEqual(workers, [3, 2]);
    for (const context of ['member1', 'member2']) {
      const data = kubectl(['get', 'configmap', 'order-workers', '-n', ns, '-o', 'jsonpath={.data.QUEUE}'], {
        context,
      });
      assert.equal(data, 'orders', `${context} has the pool's ConfigMap`);
    }
  },
);

test(
  'the pool health and reflected status come from its InterpretHealth and InterpretStatus scripts, and the hub aggregates them with AggregateStatus',
  slow,
  async () => {
    const unready = await eventually('member1 reports the pool', async () => {
      const entry = await poolRecord('member1');
      return entry.includes('health:') ? entry : undefined;
    });
    assert.match(unready, /health: Degraded/, unready);
    kubectl(
      [
        'patch',
        'workerpool',
        'order-workers',
        '-n',
        ns,
        '--subresource=status',
        '--type=merge',
        '-p',
        '{"status":{"readyWorkers":3,"observedGeneration":1}}',
      ],
      { context: 'member1' },
    );
    const ready = await eventually('member1 reports the pool healthy', async () => {
      const entry = await poolRecord('member1');
      return /health: Healthy/.test(entry) ? entry : undefined;
    });
    assert.match(ready, /readyWorkers: 3/, ready);
    let seen = '';
    const record = await eventually('the hub aggregates the pool status', async () => {
      try {
        const text = await git(repo, [
          'show',
          `refs/heads/gitfleet/bindings:${ns}/WorkerPool.example.com/order-workers.yaml`,
        ]);
        seen = text;
        return /templateStatus:\n\s+readyWorkers: 3$/m.test(text) ? text : undefined;
      } catch {
        return undefined;
      }
    }).catch((error: Error) => {
      throw new Error(`${error.message}; the record says:\n${seen}`);
    });
    assert.doesNotMatch(record, /templateStatusError/, record);
  },
);

test(
  'a field the member cluster owns (Retain) is left alone; one gitfleet owns is corrected',
  slow,
  async () => {
    kubectl(
      [
        'patch',
        'workerpool',
        'order-workers',
        '-n',
        ns,
        '--type=merge',
        '-p',
        '{"spec":{"draining":true,"workers":7}}',
      ],
      { context: 'member1' },
    );
    await eventually('the agent corrects spec.workers', async () =>
      pool('member1').spec.workers === 3 ? true : undefined,
    );
    // The apply that put spec.workers back was of the retained manifest: spec.draining stayed.
    assert.equal(pool('member1').spec.draining, true);
    kubectl(
      ['patch', 'workerpool', 'order-workers', '-n', ns, '--type=merge', '-p', '{"spec":{"workers":9}}'],
      {
        context: 'member1',
      },
    );
    await eventually('the agent corrects spec.workers again', async () =>
      pool('member1').spec.workers === 3 ? true : undefined,
    );
    assert.equal(pool('member1').spec.draining, true, 'spec.draining is still the member cluster’s');
    assert.equal(pool('member2').spec.draining, false, 'member2 keeps the template’s value');
  },
);

// Keeps the example's files in step: the test reads them, so they must stay loadable as a fleet.
test('the example fleet is valid', slow, async () => {
  const copy = tempDir('interp-example');
  cpSync(example, copy, { recursive: true });
  const child = spawn(process.execPath, [cli, 'validate', copy], { stdio: ['ignore', 'pipe', 'pipe'] });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0);
});
