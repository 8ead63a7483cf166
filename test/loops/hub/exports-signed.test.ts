// MCS endpoint reports come only from a status commit the exporting cluster's key signed
// (accept-status-heads.ts): an EndpointSlice exported on member1's status branch by a commit
// that is unsigned, or signed by member2's key, is never imported into member2's branch; the
// same export signed by member1's key is.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { statusBranchFiles } from '../../../src/core/status/status-branch.js';
import { generateSshKey } from '../../../src/adapters/signing/generate-ssh-key.js';
import { signerOfText } from '../../../src/adapters/signing/load-signing-key.js';
import { mcsCrds } from '../../support/fleet-docs.js';
import {
  branchFiles,
  commitStatusBranch,
  fleetRepoWith,
  hubPass,
  rendered,
  removeFleetRepos,
} from './hub-fixture.js';

after(removeFleetRepos);

const keys = { member1: generateSshKey('agent@member1'), member2: generateSshKey('agent@member2') };
const forgedAddress = '10.66.6.6';

const cluster = (name: 'member1' | 'member2') =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n  annotations:\n    gitfleet.io/signing-key: ${keys[name].publicLine}\nspec: {syncMode: Pull}\n`;

const fleet = {
  'clusters.yaml': `${cluster('member1')}---\n${cluster('member2')}`,
  'crds.yaml': mcsCrds(),
  'apps/web.yaml': `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, protocol: TCP}]
---
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceExport
metadata: {name: web, namespace: shop}
---
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: web, namespace: shop}
spec:
  type: ClusterSetIP
  ports: [{name: http, port: 80, protocol: TCP}]
`,
  'policies.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: mcs-crds}
spec:
  resourceSelectors:
    - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition}
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: provider, namespace: shop}
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: Service, name: web}
    - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceExport, name: web}
  placement: {clusterAffinity: {clusterNames: [member1]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: consumer, namespace: shop}
spec:
  resourceSelectors:
    - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, name: web}
  placement: {clusterAffinity: {clusterNames: [member2]}}
`,
};

const exported = statusBranchFiles({
  cluster: 'member1',
  appliedCommit: null,
  objects: [],
  exports: [
    {
      cluster: 'member1',
      namespace: 'shop',
      service: 'web',
      name: 'web-a',
      addressType: 'IPv4',
      endpoints: [{ addresses: [forgedAddress], conditions: { ready: true } }],
      ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
    },
  ],
});

for (const [by, imported] of [
  [undefined, false],
  ['member2', false],
  ['member1', true],
] as const) {
  test(`An endpoint exported on member1's status branch ${by ? `signed by ${by}'s key` : 'unsigned'} is ${imported ? '' : 'not '}imported into member2's branch.`, async () => {
    const repo = fleetRepoWith(fleet, { bare: false });
    rendered(await hubPass(repo));
    const signer = by === undefined ? undefined : await signerOfText(keys[by].privateKey, by);
    await commitStatusBranch(repo, 'member1', exported, 'status of member1\n', signer);
    const pass = await hubPass(repo);
    const refused =
      pass.type === 'rendered'
        ? pass.diagnostics.some((d) => d.code === 'StatusRefused')
        : !!pass.statusRefused?.['member1'];
    assert.equal(refused, !imported, JSON.stringify(pass));
    const member2 = [...branchFiles(repo, 'gitfleet/clusters/member2').values()].join('\n');
    assert.equal(member2.includes(forgedAddress), imported, member2);
  });
}
