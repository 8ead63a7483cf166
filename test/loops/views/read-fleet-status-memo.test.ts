// readFleetStatus with a memo kept between reads (what the dashboard and `status --watch` do), on
// a repository written by real hub passes and status branches written as agents write them: a
// read after one status branch moved gives exactly what a read without a memo gives, and parses
// only the blobs that changed; the memo holds what the last read used, not what came before.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFleetStatus } from '../../../src/loops/views/read-fleet-status.js';
import { createFleetStatusMemo, type FleetStatusMemo } from '../../../src/loops/views/fleet-status-memo.js';
import { fleetRepoWith, hubPass, rendered, removeFleetRepos } from '../hub/hub-fixture.js';
import { commitReport, head, recordsOf, shopFleet } from '../../cli/status-fixture.js';

after(removeFleetRepos);

const ready = { conditions: [{ type: 'Ready', status: 'True' as const }], kubernetesVersion: 'v1.31.0' };

/** Counts the entries each memo map gains (a parse or a read that was not in the memo). */
function countMisses(memo: FleetStatusMemo): { records: number; bindings: number; trees: number } {
  const counts = { records: 0, bindings: 0, trees: 0 };
  for (const name of ['records', 'bindings', 'trees'] as const) {
    const map = memo[name] as { set(key: string, value: unknown): void };
    const set = map.set.bind(map);
    map.set = (key, value) => {
      counts[name]++;
      set(key, value);
    };
  }
  return counts;
}

test('a read after one status branch moved equals a fresh read and parses only what changed', async () => {
  const repo = fleetRepoWith(shopFleet(), { bare: false });
  rendered(await hubPass(repo));
  const m1 = head(repo, 'gitfleet/clusters/m1');
  const m2 = head(repo, 'gitfleet/clusters/m2');
  await commitReport(
    repo,
    { cluster: 'm1', appliedCommit: m1, clusterStatus: ready, objects: recordsOf(repo, m1) },
    1_700_000_100,
  );
  await commitReport(
    repo,
    { cluster: 'm2', appliedCommit: m2, clusterStatus: ready, objects: recordsOf(repo, m2) },
    1_700_000_100,
  );

  const memo = createFleetStatusMemo();
  const first = await readFleetStatus({ dir: repo.path, memo });
  assert.deepEqual(
    first,
    await readFleetStatus({ dir: repo.path }),
    'a memo changes nothing on the first read',
  );
  // m1 and m2 run the same three objects, all Healthy: the same three blobs.
  assert.equal(memo.records.size, 3, 'each record blob was parsed once');

  // m2's Deployment turns Progressing: one object file of one status branch changes.
  await commitReport(
    repo,
    {
      cluster: 'm2',
      appliedCommit: m2,
      clusterStatus: ready,
      objects: recordsOf(repo, m2, { 'Deployment/web': 'Progressing' }),
    },
    1_700_000_200,
  );
  const misses = countMisses(memo);
  const second = await readFleetStatus({ dir: repo.path, memo });
  assert.deepEqual(second, await readFleetStatus({ dir: repo.path }));
  assert.equal(
    second.reports.get('m2')!.objects.find((o) => o.ref.kind === 'Deployment')!.health,
    'Progressing',
  );
  assert.equal(misses.records, 1, 'only the changed record was parsed');
  assert.equal(misses.bindings, 0, 'the bindings branch did not move: no record parsed again');
  // The new root tree, objects/, objects/shop/ and objects/shop/Deployment.apps/ of m2's branch.
  assert.equal(misses.trees, 4, 'only the trees on the changed path were read');
  assert.equal(memo.records.size, 4, "m1's Healthy Deployment and m2's Progressing one");

  // m1's turns Progressing too: the Healthy Deployment's record is used by no branch any more.
  await commitReport(
    repo,
    {
      cluster: 'm1',
      appliedCommit: m1,
      clusterStatus: ready,
      objects: recordsOf(repo, m1, { 'Deployment/web': 'Progressing' }),
    },
    1_700_000_300,
  );
  const third = await readFleetStatus({ dir: repo.path, memo });
  assert.deepEqual(third, await readFleetStatus({ dir: repo.path }));
  assert.equal(memo.records.size, 3, 'the record no branch holds was swept');
});

test('a read that fails keeps the memo usable, and the next read is still right', async () => {
  const repo = fleetRepoWith(shopFleet(), { bare: false });
  const memo = createFleetStatusMemo();
  await assert.rejects(readFleetStatus({ dir: repo.path, memo }), { code: 'NoBindingsBranch' });
  rendered(await hubPass(repo));
  assert.deepEqual(
    await readFleetStatus({ dir: repo.path, memo }),
    await readFleetStatus({ dir: repo.path }),
  );
});
