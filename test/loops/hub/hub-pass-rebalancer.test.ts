// A WorkloadRebalancer committed to the fleet repo, through real hub passes on a real
// repository: the pass that first sees it asks for the fresh schedule (a Rebalanced decision and
// its Gitfleet-Rebalance trailer), records its status on the bindings branch, and a later pass,
// by a restarted hub, reads the record back and asks nothing again.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseRebalancerRecord } from '../../../src/core/failover/rebalance.js';
import {
  branchFiles,
  commitChange,
  exampleFleetRepo,
  git,
  hubPass,
  removeFleetRepos,
  rendered,
} from './hub-fixture.js';

after(removeFleetRepos);

const rebalancer = `apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata:
  name: demo
spec:
  workloads:
    - apiVersion: apps/v1
      kind: Deployment
      namespace: shop
      name: web
    - apiVersion: apps/v1
      kind: Deployment
      namespace: shop
      name: missing
`;
const recordPath = '.gitfleet/failover/rebalancers/demo.yaml';

test('a rebalancer asks once: its status is recorded on the bindings branch and read back by a restarted hub', async () => {
  const repo = exampleFleetRepo({ bare: true });
  await hubPass(repo);
  commitChange(repo, 'rebalance web', (work) => {
    mkdirSync(join(work, 'rebalance'), { recursive: true });
    writeFileSync(join(work, 'rebalance/demo.yaml'), rebalancer);
  });
  const first = rendered(await hubPass(repo, { now: () => new Date('2026-12-01T15:00:00.000Z') }));
  assert.deepEqual(
    (first.decisions ?? []).map((d) => `${d.type} ${d.binding}`),
    ['Rebalanced apps/Deployment/shop/web'],
  );
  const message = git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']);
  assert.match(
    message,
    /^Gitfleet-Rebalance: demo: apps\/Deployment\/shop\/web: a fresh schedule asked for at 2026-12-01T15:00:00.000Z/m,
  );
  const record = parseRebalancerRecord(branchFiles(repo, 'gitfleet/bindings').get(recordPath) ?? '');
  assert.deepEqual(record, {
    name: 'demo',
    firstSeen: '2026-12-01T15:00:00.000Z',
    observedWorkloads: [
      {
        workload: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'missing', namespace: 'shop' },
        result: 'Failed',
        reason: 'ReferencedBindingNotFound',
      },
      {
        workload: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'shop' },
        result: 'Successful',
      },
    ],
    finishTime: '2026-12-01T15:00:00.000Z',
    expired: false,
  });
  // Another source change, a restarted hub (a fresh cache, hubPass's default), an hour later.
  commitChange(repo, 'touch the readme', (work) => writeFileSync(join(work, 'README.md'), 'edited\n'));
  const later = await hubPass(repo, { now: () => new Date('2026-12-01T16:00:00.000Z') });
  assert.equal(later.type === 'rendered' ? (later.decisions ?? []).length : 0, 0, 'nothing asked again');
  assert.deepEqual(
    parseRebalancerRecord(branchFiles(repo, 'gitfleet/bindings').get(recordPath) ?? ''),
    record,
    'the record is kept as it was',
  );
});
