import { test } from 'node:test';
import assert from 'node:assert/strict';
import { observedClusters, observedFigures } from '../../bench/lib/budget-observed.js';

const names = (n: number) => Array.from({ length: n }, (_, k) => `c${k}`);

test('The observed agents are spread evenly over the clusters, as many as asked, none for 0.', () => {
  assert.deepEqual([...observedClusters(names(10), 5)], ['c0', 'c2', 'c4', 'c6', 'c8']);
  // 1,000 over 84 render repositories pinned round-robin: 25, every 40th, land in 21 of them,
  // from the first to the last the hub publishes.
  const picked = [...observedClusters(names(1000), 25)].map((c) => Number(c.slice(1)));
  assert.equal(picked.length, 25);
  const repositories = new Set(picked.map((k) => k % 84));
  assert.equal(repositories.size, 21);
  assert.ok(Math.min(...repositories) === 0 && Math.max(...repositories) >= 80);
  assert.equal(observedClusters(names(10), 0).size, 0);
  assert.equal(observedClusters(names(3), 10).size, 3);
});

test("The observed figures are those of the observed clusters only, the agent's share after the hub's.", () => {
  const clusters = names(4);
  const { details, note } = observedFigures({
    clusters,
    observed: new Set(['c1', 'c3']),
    latencies: [9000, 1500, 9000, 1800],
    published: [8000, 500, 8000, 600],
  });
  assert.deepEqual(details['observed'], {
    clusters: 2,
    pushToAppliedMs: { p50: 1500, p99: 1800 },
    pushToPublishedMs: { p50: 500, p99: 600 },
    publishedToAppliedMs: { p50: 1000, p99: 1200 },
  });
  assert.match(note, /the 2 observed agents .*P99 1\.8 s/);
});
