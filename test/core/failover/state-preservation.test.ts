// Karmada's injectReservedLabelState (pkg/controllers/binding/common.go): the labels
// application failover preserved are injected into the workload on the cluster it moved to,
// only when it runs on exactly one cluster, the last eviction task purged Directly and the
// cluster is a new one. Rendered through the object renderer, as the cluster branch gets it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import type { Binding } from '../../../src/core/model/binding.js';
import type { GracefulEvictionTask } from '../../../src/core/model/failover.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { preservedLabelsFor } from '../../../src/core/failover/state-preservation.js';
import { createObjectRenderer } from '../../../src/core/render/render-object.js';
import { aCluster } from '../builders.js';
import { fileOf, mustLoad } from '../load/documents.js';
import { aBinding } from './failover-fixtures.js';

const task = (extra: Partial<GracefulEvictionTask> = {}): GracefulEvictionTask => ({
  fromCluster: 'member1',
  purgeMode: 'Directly',
  reason: 'ApplicationFailure',
  producer: 'ApplicationFailover',
  preservedLabelState: { 'example.io/available': '2' },
  clustersBeforeFailover: ['member1'],
  creationTimestamp: '2026-12-01T15:00:00.000Z',
  ...extra,
});

const rows: { name: string; binding: Binding; cluster: string; want: Record<string, string> | undefined }[] =
  [
    {
      name: 'One target cluster, last task Directly, a new cluster: the labels.',
      binding: aBinding({ member2: 2 }, { evictionTasks: [task()] }),
      cluster: 'member2',
      want: { 'example.io/available': '2' },
    },
    {
      name: 'More than one target cluster: none.',
      binding: aBinding({ member2: 1, member3: 1 }, { evictionTasks: [task()] }),
      cluster: 'member2',
      want: undefined,
    },
    {
      name: 'The last task purged Gracefully: none.',
      binding: aBinding({ member2: 2 }, { evictionTasks: [task({ purgeMode: 'Gracefully' })] }),
      cluster: 'member2',
      want: undefined,
    },
    {
      name: 'Only the last task counts.',
      binding: aBinding(
        { member2: 2 },
        {
          evictionTasks: [
            task(),
            task({ fromCluster: 'member3', purgeMode: 'Never', preservedLabelState: { x: 'y' } }),
          ],
        },
      ),
      cluster: 'member2',
      want: undefined,
    },
    {
      name: 'A cluster the workload ran on before the failover: none.',
      binding: aBinding(
        { member2: 2 },
        { evictionTasks: [task({ clustersBeforeFailover: ['member1', 'member2'] })] },
      ),
      cluster: 'member2',
      want: undefined,
    },
    {
      name: 'No eviction task: none.',
      binding: aBinding({ member2: 2 }),
      cluster: 'member2',
      want: undefined,
    },
  ];

for (const row of rows) {
  test(row.name, () => {
    assert.deepEqual(preservedLabelsFor(row.binding, row.cluster), row.want);
  });
}

test('The rendered workload on the new cluster carries the preserved labels, merged with its own.', () => {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', labels: { app: 'web', 'example.io/available': 'old' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } } },
    },
  };
  const fleet = mustLoad([fileOf('apps/web.yaml', deployment)]);
  const template = fleet.templates[0]!;
  const moved = aBinding({ member2: 2 }, { evictionTasks: [task()] });
  const renderer = createObjectRenderer({
    fleet,
    templates: new Map([[template.key, template]]),
    bindings: new Map([[moved.key, moved]]),
  });
  const labelsOf = (b: Binding) => {
    const copy = renderer.render(b, aCluster('member2'), 2);
    assert.ok(copy.outcome.ok);
    return (yaml.load(copy.outcome.text) as KubeObject).metadata.labels;
  };
  assert.deepEqual(labelsOf(moved), {
    app: 'web',
    'example.io/available': '2',
    'gitfleet.io/managed': 'true',
  });
  // The same copy without the task (done and dropped): the template's own label again, not a reused text.
  const done = aBinding({ member2: 2 });
  assert.deepEqual(labelsOf(done), {
    app: 'web',
    'example.io/available': 'old',
    'gitfleet.io/managed': 'true',
  });
});
