import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assignStatusRepositories,
  assignStatusRepository,
} from '../../../src/core/model/assign-status-repository.js';
import type { StatusRepository } from '../../../src/core/model/status-repository.js';
import { aCluster } from '../builders.js';

const repos = (...names: string[]): StatusRepository[] =>
  names.map((name) => ({ name, url: `https://git.example.com/${name}.git` }));
const clusters = Array.from({ length: 400 }, (_, i) => aCluster(`member-${i}`));

function nameOf(cluster: string, list: readonly StatusRepository[]): string {
  const a = assignStatusRepository(aCluster(cluster), list);
  assert.equal(a.type, 'repository');
  return a.type === 'repository' ? a.repository.name : '';
}

test('With no status repository listed, every cluster stays on the fleet repository.', () => {
  assert.deepEqual(assignStatusRepository(aCluster('a'), undefined), { type: 'fleet' });
  assert.deepEqual(assignStatusRepository(aCluster('a'), []), { type: 'fleet' });
});

test('The label gitfleet.io/status-repository picks the repository of that name, whatever the hash says.', () => {
  const list = repos('s1', 's2', 's3');
  for (const name of ['s1', 's2', 's3']) {
    const a = assignStatusRepository(
      aCluster('c', { labels: { 'gitfleet.io/status-repository': name } }),
      list,
    );
    assert.deepEqual(a, { type: 'repository', repository: list.find((r) => r.name === name), by: 'label' });
  }
});

test('A label naming no listed repository is an error naming the cluster, the label and the names listed.', () => {
  const a = assignStatusRepository(
    aCluster('edge-1', { labels: { 'gitfleet.io/status-repository': 'nope' } }),
    repos('s1', 's2'),
  );
  assert.equal(a.type, 'error');
  assert.match(
    a.type === 'error' ? a.message : '',
    /^cluster edge-1: label gitfleet\.io\/status-repository="nope" names no status repository .*listed: s1, s2/,
  );
});

test('Hashing is stable: the same cluster and list give the same repository, in any list order.', () => {
  const list = repos('s1', 's2', 's3');
  for (const c of clusters.slice(0, 50)) {
    assert.equal(nameOf(c.name, list), nameOf(c.name, [...list].reverse()));
  }
});

test('Hashing spreads clusters over the repositories: each of 4 gets between 15% and 35% of 400.', () => {
  const counts = new Map<string, number>();
  for (const a of assignStatusRepositories(clusters, {
    statusRepositories: repos('a', 'b', 'c', 'd'),
  }).values())
    if (a.type === 'repository') counts.set(a.repository.name, (counts.get(a.repository.name) ?? 0) + 1);
  assert.equal(counts.size, 4);
  for (const [name, n] of counts) assert.ok(n >= 60 && n <= 140, `${name}: ${n} of 400`);
});

test('Adding a repository moves only the clusters it takes: none moves between the old ones.', () => {
  const before = repos('a', 'b', 'c');
  const after = repos('a', 'b', 'c', 'd');
  let moved = 0;
  for (const c of clusters) {
    const was = nameOf(c.name, before);
    const now = nameOf(c.name, after);
    if (was !== now) {
      assert.equal(now, 'd', `${c.name} moved from ${was} to ${now}, not to the new repository`);
      moved++;
    }
  }
  // About a quarter moves to the new one (400 / 4 = 100).
  assert.ok(moved >= 60 && moved <= 140, `${moved} of 400 moved`);
});

test('Removing a repository moves only its own clusters.', () => {
  const before = repos('a', 'b', 'c', 'd');
  const after = repos('a', 'b', 'd');
  for (const c of clusters) {
    const was = nameOf(c.name, before);
    if (was !== 'c') assert.equal(nameOf(c.name, after), was, c.name);
  }
});
