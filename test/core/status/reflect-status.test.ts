import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { reflectStatus } from '../../../src/core/status/reflect-status.js';

function live(
  apiVersion: string,
  kind: string,
  rest: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
): KubeObject {
  return { apiVersion, kind, metadata: { name: 'x', namespace: 'shop', ...metadata }, ...rest };
}

const cases: { name: string; given: KubeObject; want: Record<string, unknown> | undefined }[] = [
  {
    name: 'a Deployment reflects its replica counts, observedGeneration, generation and the template generation',
    given: live(
      'apps/v1',
      'Deployment',
      {
        status: {
          replicas: 3,
          updatedReplicas: 3,
          readyReplicas: 2,
          availableReplicas: 2,
          unavailableReplicas: 1,
          observedGeneration: 4,
          conditions: [{ type: 'Available', status: 'True' }],
          collisionCount: 1,
        },
      },
      { generation: 4, annotations: { 'resourcetemplate.karmada.io/generation': '7' } },
    ),
    want: {
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 2,
      availableReplicas: 2,
      unavailableReplicas: 1,
      observedGeneration: 4,
      generation: 4,
      resourceTemplateGeneration: 7,
    },
  },
  {
    name: 'a Deployment leaves out zero counts as Go omitempty does',
    given: live(
      'apps/v1',
      'Deployment',
      { status: { replicas: 0, observedGeneration: 1 } },
      { generation: 1 },
    ),
    want: { observedGeneration: 1, generation: 1 },
  },
  {
    name: 'a ReplicaSet always reflects replicas, even zero',
    given: live('apps/v1', 'ReplicaSet', { status: { replicas: 0, fullyLabeledReplicas: 0 } }),
    want: { replicas: 0 },
  },
  {
    name: 'a StatefulSet reflects its replica counts but not its revisions',
    given: live(
      'apps/v1',
      'StatefulSet',
      {
        status: {
          replicas: 3,
          readyReplicas: 3,
          currentReplicas: 3,
          updatedReplicas: 3,
          currentRevision: 'db-1',
          updateRevision: 'db-1',
        },
      },
      { generation: 2 },
    ),
    want: {
      availableReplicas: 0,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      generation: 2,
    },
  },
  {
    name: 'a DaemonSet reflects its scheduling counts',
    given: live('apps/v1', 'DaemonSet', {
      status: {
        currentNumberScheduled: 2,
        desiredNumberScheduled: 2,
        numberReady: 2,
        numberAvailable: 2,
        updatedNumberScheduled: 2,
        observedGeneration: 1,
      },
    }),
    want: {
      currentNumberScheduled: 2,
      desiredNumberScheduled: 2,
      numberMisscheduled: 0,
      numberReady: 2,
      numberAvailable: 2,
      updatedNumberScheduled: 2,
      observedGeneration: 1,
    },
  },
  {
    name: 'a Job reflects its counts, conditions and times, and not its ready count',
    given: live('batch/v1', 'Job', {
      status: {
        succeeded: 1,
        ready: 0,
        startTime: '2024-05-01T10:00:00Z',
        completionTime: '2024-05-01T10:01:00Z',
        conditions: [{ type: 'Complete', status: 'True' }],
      },
    }),
    want: {
      succeeded: 1,
      startTime: '2024-05-01T10:00:00Z',
      completionTime: '2024-05-01T10:01:00Z',
      conditions: [{ type: 'Complete', status: 'True' }],
    },
  },
  {
    name: 'a LoadBalancer Service reflects its load balancer',
    given: live('v1', 'Service', {
      spec: { type: 'LoadBalancer' },
      status: { loadBalancer: { ingress: [{ ip: '203.0.113.1' }] }, conditions: [] },
    }),
    want: { loadBalancer: { ingress: [{ ip: '203.0.113.1' }] } },
  },
  {
    name: 'a ClusterIP Service reflects nothing',
    given: live('v1', 'Service', { spec: { type: 'ClusterIP' }, status: { loadBalancer: {} } }),
    want: undefined,
  },
  {
    name: 'an Ingress reflects its whole status',
    given: live('networking.k8s.io/v1', 'Ingress', {
      status: { loadBalancer: { ingress: [{ hostname: 'a.example.com' }] } },
    }),
    want: { loadBalancer: { ingress: [{ hostname: 'a.example.com' }] } },
  },
  {
    name: 'a PodDisruptionBudget reflects its budget counts but not its conditions',
    given: live('policy/v1', 'PodDisruptionBudget', {
      status: {
        currentHealthy: 3,
        desiredHealthy: 2,
        expectedPods: 3,
        disruptionsAllowed: 1,
        conditions: [{ type: 'DisruptionAllowed' }],
      },
    }),
    want: { currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, disruptionsAllowed: 1 },
  },
  {
    name: 'a HorizontalPodAutoscaler reflects current and desired replicas',
    given: live('autoscaling/v2', 'HorizontalPodAutoscaler', {
      status: {
        currentReplicas: 2,
        desiredReplicas: 4,
        currentMetrics: [],
        conditions: [{ type: 'AbleToScale' }],
      },
    }),
    want: { currentReplicas: 2, desiredReplicas: 4 },
  },
  {
    name: 'a custom resource reflects its whole status',
    given: live('example.com/v1', 'Widget', { status: { phase: 'Ready', size: 3 } }),
    want: { phase: 'Ready', size: 3 },
  },
  {
    name: 'an object without status reflects nothing',
    given: live('v1', 'ConfigMap', { data: { a: 'b' } }),
    want: undefined,
  },
  {
    name: 'an empty status reflects nothing',
    given: live('example.com/v1', 'Widget', { status: {} }),
    want: undefined,
  },
];

for (const { name, given, want } of cases) {
  test(name, () => assert.deepEqual(reflectStatus(given), want));
}

test('the reflected status is a copy: changing it leaves the live object alone', () => {
  const given = live('example.com/v1', 'Widget', { status: { nested: { a: 1 } } });
  const got = reflectStatus(given) as { nested: { a: number } };
  got.nested.a = 2;
  assert.deepEqual(given.status, { nested: { a: 1 } });
});
