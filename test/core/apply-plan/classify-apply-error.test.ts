import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  classifyApplyError,
  isRetryable,
  planImmutableChange,
  type ApplyErrorClass,
} from '../../../src/core/apply-plan/classify-apply-error.js';
import type { ApiRefusal } from '../../../src/core/model/api-refusal.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import type { ObjectRef } from '../../../src/core/model/object-ref.js';

const cases: { name: string; given: ApiRefusal; want: ApplyErrorClass }[] = [
  {
    name: "a Deployment's changed selector is immutable, with the path from the causes",
    given: {
      code: 422,
      reason: 'Invalid',
      message: 'Deployment.apps "web" is invalid: spec.selector: Invalid value: {...}: field is immutable',
      causes: [
        {
          type: 'FieldValueInvalid',
          message: 'Invalid value: {...}: field is immutable',
          field: 'spec.selector',
        },
      ],
    },
    want: { type: 'Immutable', fields: ['spec.selector'] },
  },
  {
    name: "a StatefulSet's forbidden spec update counts as immutable",
    given: {
      code: 422,
      reason: 'Invalid',
      message:
        "StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      causes: [
        {
          type: 'FieldValueForbidden',
          message: "Forbidden: updates to statefulset spec for fields other than 'replicas' are forbidden",
          field: 'spec',
        },
      ],
    },
    want: { type: 'Immutable', fields: ['spec'] },
  },
  {
    name: 'without causes the field paths are read from the message',
    given: {
      code: 422,
      message: 'Job.batch "m" is invalid: spec.template: Invalid value: x: field is immutable',
    },
    want: { type: 'Immutable', fields: ['spec.template'] },
  },
  {
    name: 'a field manager conflict names the fields',
    given: {
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-patch" using v1: .data.x',
      causes: [
        { type: 'FieldManagerConflict', message: 'conflict with "kubectl-patch" using v1', field: '.data.x' },
      ],
    },
    want: { type: 'FieldConflict', fields: ['.data.x'] },
  },
  {
    name: 'a missing namespace is NotFound',
    given: { code: 404, reason: 'NotFound', message: 'namespaces "x" not found' },
    want: { type: 'NotFound' },
  },
  {
    name: 'a validation error is Invalid',
    given: {
      code: 422,
      reason: 'Invalid',
      message: 'x: Required value',
      causes: [{ field: 'spec.containers', message: 'Required value' }],
    },
    want: { type: 'Invalid', fields: ['spec.containers'] },
  },
  {
    name: "server-side apply's 500 for a value of the wrong type is Invalid, with the path",
    given: {
      code: 500,
      message:
        'failed to create typed patch object (ns/bad; /v1, Kind=ConfigMap): .data.n: expected string, got &value.valueUnstructured{Value:5}',
    },
    want: { type: 'Invalid', fields: ['data.n'] },
  },
  {
    name: 'a forbidden request is Forbidden',
    given: { code: 403, reason: 'Forbidden', message: 'no' },
    want: { type: 'Forbidden' },
  },
  {
    name: 'throttling is transient',
    given: { code: 429, message: 'slow down' },
    want: { type: 'Transient' },
  },
  {
    name: 'no answer at all is transient',
    given: { code: 0, message: 'ECONNREFUSED' },
    want: { type: 'Transient' },
  },
  {
    name: 'a server error is transient',
    given: { code: 503, message: 'unavailable' },
    want: { type: 'Transient' },
  },
];

test('classifyApplyError tells immutable, conflicting, invalid and transient refusals apart', () => {
  for (const c of cases) assert.deepEqual(classifyApplyError(c.given), c.want, c.name);
});

test('only refusals a later pass may overcome are retryable', () => {
  assert.equal(isRetryable({ type: 'Transient' }), true);
  assert.equal(isRetryable({ type: 'NotFound' }), true);
  assert.equal(isRetryable({ type: 'Invalid', fields: [] }), false);
  assert.equal(isRetryable({ type: 'Immutable', fields: [] }), false);
});

const ref = (apiVersion: string, kind: string): ObjectRef => ({
  apiVersion,
  kind,
  namespace: 'ns',
  name: 'x',
});
const manifest = (annotations: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'X',
  metadata: { name: 'x', annotations },
});
const optedIn = manifest({ 'gitfleet.io/recreate-on-immutable-change': 'true' });

test('an immutable change is recreated only when the object opts in, and never for kinds whose deletion loses data', () => {
  const cases: { name: string; given: [ObjectRef, KubeObject]; want: string }[] = [
    {
      name: 'a Deployment that did not opt in is reported',
      given: [ref('apps/v1', 'Deployment'), manifest()],
      want: 'report',
    },
    {
      name: 'a Deployment that opted in is recreated',
      given: [ref('apps/v1', 'Deployment'), optedIn],
      want: 'recreate',
    },
    { name: 'a Job that opted in is recreated', given: [ref('batch/v1', 'Job'), optedIn], want: 'recreate' },
    {
      name: 'a StatefulSet is never recreated',
      given: [ref('apps/v1', 'StatefulSet'), optedIn],
      want: 'report',
    },
    {
      name: 'a PVC is never recreated',
      given: [ref('v1', 'PersistentVolumeClaim'), optedIn],
      want: 'report',
    },
    { name: 'a Namespace is never recreated', given: [ref('v1', 'Namespace'), optedIn], want: 'report' },
    {
      name: 'a CRD is never recreated',
      given: [ref('apiextensions.k8s.io/v1', 'CustomResourceDefinition'), optedIn],
      want: 'report',
    },
  ];
  for (const c of cases)
    assert.equal(planImmutableChange(c.given[0], c.given[1], ['spec.selector']).type, c.want, c.name);
});

test('the report names the fields and how to opt in', () => {
  const plan = planImmutableChange(ref('apps/v1', 'Deployment'), manifest(), ['spec.selector']);
  assert.deepEqual(plan, {
    type: 'report',
    message:
      'immutable field changed: spec.selector; annotate the template gitfleet.io/recreate-on-immutable-change: "true" to have it deleted and recreated',
  });
});
