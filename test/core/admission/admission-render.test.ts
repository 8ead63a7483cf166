// ValidatingAdmissionPolicies at render time (docs/admission-policies.md): every object as
// rendered for a cluster is checked by the policies and bindings placed on that cluster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admissionLines, baseFleet, renderAdmissionFleet } from './admission-fleet.js';

test('A policy denies the copy an override makes too large on one cluster only: held there, with the policy, binding and cluster named.', () => {
  const result = renderAdmissionFleet(baseFleet());
  assert.deepEqual(admissionLines(result), [
    'AdmissionDenied Deployment/shop/web @west: denied by ValidatingAdmissionPolicy/max-replicas (binding max-replicas-binding) on cluster west: replicas 5 is more than 3',
  ]);
  const west = result.clusters.get('west')!;
  assert.equal(west.files.has('shop/Deployment.apps/web.yaml'), false);
  assert.match(
    west.held.get('shop/Deployment.apps/web.yaml') ?? '',
    /denied by ValidatingAdmissionPolicy\/max-replicas/,
  );
  assert.ok(west.files.has('shop/Deployment.apps/api.yaml'));
  assert.ok(result.clusters.get('east')!.files.has('shop/Deployment.apps/web.yaml'));
  assert.ok(
    west.files.has('_cluster/ValidatingAdmissionPolicy.admissionregistration.k8s.io/max-replicas.yaml'),
  );
});
