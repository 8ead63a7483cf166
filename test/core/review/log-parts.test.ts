import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderCommitMessage } from '../../../src/core/publish/commit-message.js';
import { compareFiles } from '../../../src/core/review/log-entry.js';
import { mergeNewestFirst } from '../../../src/core/review/merge-newest-first.js';
import { isKindDirOf, namespaceDir, parseObjectSpec } from '../../../src/core/review/parse-object-spec.js';
import { parseRenderCommit } from '../../../src/core/review/parse-render-commit.js';

const specs: { name: string; given: string; want: ReturnType<typeof parseObjectSpec> }[] = [
  {
    name: 'Three parts name a namespaced object of any group.',
    given: 'Deployment/shop/web',
    want: { ok: true, spec: { kind: 'Deployment', namespace: 'shop', name: 'web' } },
  },
  {
    name: 'A group after the kind pins it.',
    given: 'Deployment.apps/shop/web',
    want: { ok: true, spec: { kind: 'Deployment', group: 'apps', namespace: 'shop', name: 'web' } },
  },
  {
    name: 'Two parts name a cluster-scoped object.',
    given: 'CustomResourceDefinition.apiextensions.k8s.io/widgets.example.com',
    want: {
      ok: true,
      spec: {
        kind: 'CustomResourceDefinition',
        group: 'apiextensions.k8s.io',
        namespace: '',
        name: 'widgets.example.com',
      },
    },
  },
  {
    name: 'One part is not an object.',
    given: 'web',
    want: { ok: false, message: "'web': expected <Kind>/<namespace>/<name> or <Kind>/<name>" },
  },
  {
    name: 'An empty part is not an object.',
    given: 'Deployment//web',
    want: { ok: false, message: "'Deployment//web': expected <Kind>/<namespace>/<name> or <Kind>/<name>" },
  },
];

for (const { name, given, want } of specs) {
  test(name, () => assert.deepEqual(parseObjectSpec(given), want));
}

test('kind directories match case-insensitively, and a given group must match too', () => {
  const any = { kind: 'deployment', namespace: 'shop', name: 'web' };
  const apps = { ...any, group: 'APPS' };
  assert.equal(isKindDirOf(any, 'Deployment.apps'), true);
  assert.equal(isKindDirOf(any, 'Deployment'), true);
  assert.equal(isKindDirOf(any, 'DeploymentX.apps'), false);
  assert.equal(isKindDirOf(apps, 'Deployment.apps'), true);
  assert.equal(isKindDirOf(apps, 'Deployment.example.com'), false);
  assert.equal(isKindDirOf(apps, 'Deployment'), false);
  assert.equal(namespaceDir({ kind: 'Namespace', namespace: '', name: 'shop' }), '_cluster');
});

test('a render commit message written by the hub reads back with its source and change list', () => {
  const message = renderCommitMessage({
    sourceCommit: 'a'.repeat(40),
    sourceRef: 'refs/heads/main',
    sourceSubject: 'bump web',
    changes: [
      { path: 'shop/Deployment.apps/web.yaml', change: 'changed' },
      { path: '_cluster/Namespace/shop.yaml', change: 'added' },
    ],
  });
  assert.deepEqual(parseRenderCommit(message), {
    type: 'render',
    subject: 'render aaaaaaa: bump web',
    sourceCommit: 'a'.repeat(40),
    sourceRef: 'refs/heads/main',
    changes: [
      { path: 'shop/Deployment.apps/web.yaml', change: 'changed' },
      { path: '_cluster/Namespace/shop.yaml', change: 'added' },
    ],
  });
});

test('a tombstone without trailers names no source', () => {
  assert.deepEqual(parseRenderCommit('tombstone: cluster removed from the fleet\n'), {
    type: 'tombstone',
    subject: 'tombstone: cluster removed from the fleet',
    changes: [],
  });
});

test('files compare as added, changed and removed by blob id', () => {
  const before = new Map([
    ['a.yaml', '1'],
    ['b.yaml', '2'],
    ['c.yaml', '3'],
  ]);
  const after = new Map([
    ['b.yaml', '2'],
    ['c.yaml', '4'],
    ['d.yaml', '5'],
  ]);
  assert.deepEqual(compareFiles(before, after), [
    { path: 'a.yaml', change: 'removed' },
    { path: 'c.yaml', change: 'changed' },
    { path: 'd.yaml', change: 'added' },
  ]);
});

test('merging keeps each list’s order, interleaves by time, and breaks ties by list order', () => {
  const m1 = [
    { id: 'm1-c', t: 9 },
    { id: 'm1-b', t: 5 },
    { id: 'm1-a', t: 1 },
  ];
  const m2 = [
    { id: 'm2-b', t: 5 },
    { id: 'm2-a', t: 3 },
  ];
  const skewed = [
    { id: 's-b', t: 2 },
    { id: 's-a', t: 7 },
  ];
  assert.deepEqual(
    mergeNewestFirst([m1, m2, skewed], (e) => e.t).map((e) => e.id),
    ['m1-c', 'm1-b', 'm2-b', 'm2-a', 's-b', 's-a', 'm1-a'],
  );
});
