import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepCopy, getPath, type KubeObject } from '../../../src/core/model/kube-object.js';
import { reviseReplicas } from '../../../src/core/override/revise-replicas.js';
import { aConfigMap, aDeployment } from '../builders.js';
import { aJob, aPod, aWorkload } from './workload-builders.js';

const cases: {
  name: string;
  given: { object: KubeObject; replicas: number; completions?: number };
  want: { replicas?: unknown; parallelism?: unknown; completions?: unknown };
}[] = [
  {
    name: 'A Deployment gets the replicas assigned to the cluster.',
    given: { object: aDeployment('nginx', { replicas: 6 }), replicas: 2 },
    want: { replicas: 2 },
  },
  {
    name: 'A Deployment without spec.replicas gets them written.',
    given: { object: aWorkload('apps/v1', 'Deployment', { template: {} }), replicas: 3 },
    want: { replicas: 3 },
  },
  {
    name: 'A StatefulSet gets the replicas assigned to the cluster.',
    given: { object: aWorkload('apps/v1', 'StatefulSet', { replicas: 4 }), replicas: 1 },
    want: { replicas: 1 },
  },
  {
    name: 'A ReplicaSet without a spec gets one with the replicas.',
    given: { object: aWorkload('apps/v1', 'ReplicaSet'), replicas: 2 },
    want: { replicas: 2 },
  },
  {
    name: 'A Job gets its parallelism revised and keeps its completions when none are passed.',
    given: { object: aJob(4, 10), replicas: 3 },
    want: { parallelism: 3, completions: 10 },
  },
  {
    name: "A Job gets the cluster's share of completions when the placement divides them.",
    given: { object: aJob(4, 10), replicas: 3, completions: 7 },
    want: { parallelism: 3, completions: 7 },
  },
  {
    name: 'A Job without either field gets the defaulted completions revised too.',
    given: { object: aJob(), replicas: 1, completions: 1 },
    want: { parallelism: 1, completions: 1 },
  },
  {
    name: 'A work-queue Job (no completions) never gets completions written.',
    given: { object: aJob(4), replicas: 2, completions: 2 },
    want: { parallelism: 2 },
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const before = deepCopy(given.object);
    const opts = given.completions === undefined ? {} : { completions: given.completions };
    const revised = reviseReplicas(given.object, given.replicas, opts);
    const got: Record<string, unknown> = {};
    for (const field of ['replicas', 'parallelism', 'completions']) {
      const value = getPath(revised, ['spec', field]);
      if (value !== undefined) got[field] = value;
    }
    assert.deepEqual(got, want);
    assert.deepEqual(given.object, before, 'the template is not changed');
  });
}

const untouched: { name: string; given: KubeObject }[] = [
  { name: 'A Pod is copied unchanged.', given: aPod(['nginx']) },
  { name: 'A DaemonSet is copied unchanged.', given: aWorkload('apps/v1', 'DaemonSet', { template: {} }) },
  { name: 'A ConfigMap is copied unchanged.', given: aConfigMap('settings', { a: '1' }) },
];

for (const { name, given } of untouched) {
  test(name, () => {
    const revised = reviseReplicas(given, 5);
    assert.deepEqual(revised, given);
    assert.notEqual(revised, given, 'a copy, not the template itself');
  });
}

test('The revised copy shares nothing with the template.', () => {
  const template = aDeployment('nginx', { replicas: 6 });
  const revised = reviseReplicas(template, 2);
  (getPath(revised, ['spec', 'template', 'metadata', 'labels']) as Record<string, string>).app = 'changed';
  assert.equal(getPath(template, ['spec', 'template', 'metadata', 'labels', 'app']), 'nginx');
});
