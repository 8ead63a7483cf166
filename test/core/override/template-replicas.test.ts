import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import {
  hasReplicas,
  templateJobCompletions,
  templateReplicas,
} from '../../../src/core/override/template-replicas.js';
import { aConfigMap, aDeployment } from '../builders.js';
import { aJob, aPod, aWorkload } from './workload-builders.js';

const cases: { name: string; given: KubeObject; want: { replicas: number; revised: boolean } }[] = [
  {
    name: 'A Deployment has the replicas its spec asks for.',
    given: aDeployment('nginx', { replicas: 3 }),
    want: { replicas: 3, revised: true },
  },
  {
    name: 'A Deployment without spec.replicas has 1, as the API server defaults it.',
    given: aWorkload('apps/v1', 'Deployment', { template: {} }),
    want: { replicas: 1, revised: true },
  },
  {
    name: 'A Deployment scaled to zero has 0 replicas.',
    given: aDeployment('nginx', { replicas: 0 }),
    want: { replicas: 0, revised: true },
  },
  {
    name: 'A StatefulSet has the replicas its spec asks for.',
    given: aWorkload('apps/v1', 'StatefulSet', { replicas: 5 }),
    want: { replicas: 5, revised: true },
  },
  {
    name: 'A ReplicaSet without a spec has 1 replica.',
    given: aWorkload('apps/v1', 'ReplicaSet'),
    want: { replicas: 1, revised: true },
  },
  {
    name: 'A Job has its parallelism.',
    given: aJob(4),
    want: { replicas: 4, revised: true },
  },
  {
    name: 'A Job without parallelism or completions has 1 replica.',
    given: aJob(),
    want: { replicas: 1, revised: true },
  },
  {
    name: 'A Job with more parallelism than completions runs only as many pods as completions.',
    given: aJob(5, 2),
    want: { replicas: 2, revised: true },
  },
  {
    name: 'A Job with completions but no parallelism runs one pod at a time.',
    given: aJob(undefined, 6),
    want: { replicas: 1, revised: true },
  },
  {
    name: 'A Pod always has 1 replica but is never revised.',
    given: aPod(['nginx']),
    want: { replicas: 1, revised: false },
  },
  {
    name: 'A DaemonSet has no replicas.',
    given: aWorkload('apps/v1', 'DaemonSet', { template: {} }),
    want: { replicas: 0, revised: false },
  },
  {
    name: 'A ConfigMap has no replicas.',
    given: aConfigMap('settings'),
    want: { replicas: 0, revised: false },
  },
  {
    name: 'A custom resource named Deployment in another group has no replicas.',
    given: aWorkload('example.com/v1', 'Deployment', { replicas: 3 }),
    want: { replicas: 0, revised: false },
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    assert.deepEqual({ replicas: templateReplicas(given), revised: hasReplicas(given) }, want);
  });
}

const completionCases: { name: string; given: KubeObject; want: number | undefined }[] = [
  { name: 'A Job with completions has them.', given: aJob(2, 7), want: 7 },
  { name: 'A Job with neither field is defaulted to 1 completion.', given: aJob(), want: 1 },
  {
    name: 'A work-queue Job (parallelism, no completions) has no completions.',
    given: aJob(3),
    want: undefined,
  },
  { name: 'A Deployment has no completions.', given: aDeployment('nginx'), want: undefined },
];

for (const { name, given, want } of completionCases) {
  test(name, () => {
    assert.equal(templateJobCompletions(given), want);
  });
}
