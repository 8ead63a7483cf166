import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scaleTargetOf } from '../../../src/core/follow/scale-target.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import type { ObjectRef } from '../../../src/core/model/object-ref.js';
import { aDeployment } from '../builders.js';

/** Returns an HPA `shop/web` of the given apiVersion with the given scaleTargetRef. */
function anHpa(apiVersion: string, scaleTargetRef: unknown): KubeObject {
  return {
    apiVersion,
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { scaleTargetRef, minReplicas: 2, maxReplicas: 10 },
  };
}

const webRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const webTarget: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };

test('scaleTargetOf reads spec.scaleTargetRef of every HPA version', () => {
  const cases: { name: string; given: KubeObject; want: ObjectRef | undefined }[] = [
    {
      name: 'An autoscaling/v1 HPA targets its Deployment.',
      given: anHpa('autoscaling/v1', webRef),
      want: webTarget,
    },
    {
      name: 'An autoscaling/v2 HPA targets its Deployment.',
      given: anHpa('autoscaling/v2', webRef),
      want: webTarget,
    },
    {
      name: 'An autoscaling/v2beta2 HPA targets its Deployment.',
      given: anHpa('autoscaling/v2beta2', webRef),
      want: webTarget,
    },
    {
      name: 'An autoscaling/v2beta1 HPA targets its Deployment.',
      given: anHpa('autoscaling/v2beta1', webRef),
      want: webTarget,
    },
    {
      name: 'An HPA may target a StatefulSet or a custom resource.',
      given: anHpa('autoscaling/v2', { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w' }),
      want: { apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'shop', name: 'w' },
    },
  ];
  for (const { name, given, want } of cases) assert.deepEqual(scaleTargetOf(given), want, name);
});

test('scaleTargetOf is undefined for malformed HPAs and other objects', () => {
  const cases: { name: string; given: KubeObject; want: ObjectRef | undefined }[] = [
    {
      name: 'An HPA without a scaleTargetRef has no target.',
      given: anHpa('autoscaling/v2', undefined),
      want: undefined,
    },
    {
      name: 'An HPA whose scaleTargetRef lacks a name has no target.',
      given: anHpa('autoscaling/v2', { apiVersion: 'apps/v1', kind: 'Deployment' }),
      want: undefined,
    },
    {
      name: 'An HPA whose scaleTargetRef lacks a kind has no target.',
      given: anHpa('autoscaling/v2', { apiVersion: 'apps/v1', name: 'web' }),
      want: undefined,
    },
    {
      name: 'An HPA whose scaleTargetRef lacks an apiVersion has no target.',
      given: anHpa('autoscaling/v1', { kind: 'Deployment', name: 'web' }),
      want: undefined,
    },
    {
      name: 'An HPA whose scaleTargetRef name is not a string has no target.',
      given: anHpa('autoscaling/v2', { ...webRef, name: 42 }),
      want: undefined,
    },
    {
      name: 'A scaleTargetRef that is a list has no target.',
      given: anHpa('autoscaling/v2', [webRef]),
      want: undefined,
    },
    {
      name: 'A HorizontalPodAutoscaler of an unknown group has no target.',
      given: anHpa('autoscaling.karmada.io/v1alpha1', webRef),
      want: undefined,
    },
    {
      name: "Karmada's FederatedHPA is not an HPA.",
      given: { ...anHpa('autoscaling.karmada.io/v1alpha1', webRef), kind: 'FederatedHPA' },
      want: undefined,
    },
    {
      name: 'A Deployment has no scale target.',
      given: aDeployment('web', { namespace: 'shop' }),
      want: undefined,
    },
  ];
  for (const { name, given, want } of cases) assert.deepEqual(scaleTargetOf(given), want, name);
});
