import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignRenderRepository, renderUrls } from '../../../src/core/model/assign-render-repository.js';
import { assignStatusRepository } from '../../../src/core/model/assign-status-repository.js';
import type { RenderRepository } from '../../../src/core/model/render-repository.js';
import { aCluster } from '../builders.js';

const repos = (...names: string[]): RenderRepository[] =>
  names.map((name) => ({ name, url: `https://git.example.com/${name}.git` }));
const clusters = Array.from({ length: 400 }, (_, i) => aCluster(`member-${i}`));

test('With no render repository listed, every cluster branch stays in the fleet repository.', () => {
  assert.deepEqual(assignRenderRepository(aCluster('a'), undefined), { type: 'fleet' });
  assert.deepEqual(renderUrls(clusters, {}).size, 0);
});

test('The label gitfleet.io/render-repository picks the repository of that name; the status label does not.', () => {
  const list = repos('r1', 'r2', 'r3');
  for (const name of ['r1', 'r2', 'r3']) {
    const pinned = aCluster('c', {
      labels: { 'gitfleet.io/render-repository': name, 'gitfleet.io/status-repository': 'r1' },
    });
    assert.deepEqual(assignRenderRepository(pinned, list), {
      type: 'repository',
      repository: list.find((r) => r.name === name),
      by: 'label',
    });
  }
  const statusOnly = aCluster('c', { labels: { 'gitfleet.io/status-repository': 'r1' } });
  assert.equal(assignRenderRepository(statusOnly, list).type === 'repository', true);
  assert.equal((assignRenderRepository(statusOnly, list) as { by: string }).by, 'hash');
});

test('A label naming no listed render repository is an error naming the cluster, the label and the names listed.', () => {
  const a = assignRenderRepository(
    aCluster('edge-1', { labels: { 'gitfleet.io/render-repository': 'nope' } }),
    repos('r1', 'r2'),
  );
  assert.deepEqual(a, {
    type: 'error',
    message:
      'cluster edge-1: label gitfleet.io/render-repository="nope" names no render repository of the FleetConfig (listed: r1, r2)',
  });
});

test('Render and status repositories of the same names hash alike: one rule, written once.', () => {
  const list = repos('a', 'b', 'c');
  for (const c of clusters.slice(0, 100)) {
    const render = assignRenderRepository(c, list);
    const status = assignStatusRepository(c, list);
    assert.deepEqual(render, status, c.name);
  }
});

test('Hashing spreads cluster branches over render repositories, and adding one moves clusters only to it.', () => {
  const before = renderUrls(clusters, { renderRepositories: repos('a', 'b', 'c') });
  const after = renderUrls(clusters, { renderRepositories: repos('a', 'b', 'c', 'd') });
  const counts = new Map<string, number>();
  for (const url of before.values()) counts.set(url, (counts.get(url) ?? 0) + 1);
  assert.equal(counts.size, 3);
  for (const [url, n] of counts) assert.ok(n >= 90 && n <= 180, `${url}: ${n} of 400`);
  let moved = 0;
  for (const [cluster, url] of before) {
    const now = after.get(cluster);
    if (now !== url) {
      assert.equal(now, 'https://git.example.com/d.git', `${cluster} moved between old repositories`);
      moved++;
    }
  }
  assert.ok(moved >= 60 && moved <= 140, `${moved} of 400 moved`);
});
