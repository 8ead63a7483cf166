// The "Why" of a preview: the templates a change leaves placed nowhere, off a cluster, or held
// behind a rollout step, and not those whose state the change does not touch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Binding, ClusterDiagnosis, ScheduleResult } from '../../../src/core/model/binding.js';
import { explainPreview } from '../../../src/core/review/explain-preview.js';
import type { RenderSide } from '../../../src/core/review/diff-renders.js';
import type { RolloutPreview } from '../../../src/core/review/preview-rollouts.js';
import { aPlacement } from '../builders.js';

const clusters = ['member1', 'member2'];
const noCrd = (cluster: string): ClusterDiagnosis => ({
  cluster,
  filter: 'APIEnablement',
  reason: 'API example.com/v1 Widget not enabled',
});

function aWidget(schedule: ScheduleResult): Binding {
  return {
    name: 'w-widget',
    resource: { apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'shop', name: 'w' },
    key: 'example.com/Widget/shop/w',
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'widgets' },
    origin: 'policy',
    replicas: 0,
    placement: aPlacement(),
    propagateDeps: false,
    conflictResolution: 'Abort',
    preserveResourcesOnDeletion: false,
    schedule,
    requiredBy: [],
    overrides: 'all',
  };
}

const nowhere = aWidget({
  type: 'NoFit',
  message: '0/2 clusters are available',
  diagnosis: clusters.map(noCrd),
});
const side = (...bindings: Binding[]): RenderSide => ({ clusters: new Map(), bindings, diagnostics: [] });

test('a template the change places nowhere says why, cluster by cluster', () => {
  const why = explainPreview({ base: side(), head: side(nowhere), clusters });
  assert.deepEqual(
    why.map((w) => [w.template, w.reason, w.message]),
    [
      [
        'Widget/shop/w',
        'NoClusterFit',
        '0/2 clusters are available: member1 lacks the CRD example.com Widget: propagate its CustomResourceDefinition to the cluster (a CRD template placed there), or install it; member2: the same',
      ],
    ],
  );
});

test('a template placed nowhere before and after, for the same reasons, is not the change: not listed', () => {
  assert.deepEqual(explainPreview({ base: side(nowhere), head: side(nowhere), clusters }), []);
});

test('a template the change places, but not on a cluster a fact keeps it off, says which and why', () => {
  const placed = aWidget({
    type: 'Scheduled',
    clusters: [{ name: 'member1', replicas: 0 }],
    refused: [noCrd('member2')],
  });
  const why = explainPreview({ base: side(), head: side(placed), clusters });
  assert.deepEqual(
    why.map((w) => [w.reason, w.clusters.map((c) => c.cluster)]),
    [['ApiNotServed', ['member2']]],
  );
});

test("a rollout's later steps are why its templates do not reach those clusters now", () => {
  const rollout: RolloutPreview = {
    strategies: [
      {
        strategy: 'shop/web',
        templates: ['Deployment/shop/web'],
        steps: [
          { step: 1, clusters: ['member1'], later: [], soakSeconds: 30, approval: 'Auto' },
          { step: 2, clusters: ['member2'], later: ['member2'], soakSeconds: 0, approval: 'Manual' },
        ],
      },
    ],
    atOnce: [],
    now: ['member1'],
    later: ['member2'],
  };
  const why = explainPreview({ base: side(), head: side(), rollout, clusters });
  assert.deepEqual(
    why.map((w) => [w.template, w.reason, w.message]),
    [
      [
        'Deployment/shop/web',
        'HeldByRollout',
        "reaches member2 in step 2 (after step 1 runs it Healthy and soaks 30s, once a person approves it with a Gitfleet-Approve trailer) of rollout shop/web, not in the merge's own hub pass",
      ],
    ],
  );
});
