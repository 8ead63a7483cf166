import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readGitSource } from '../../../src/adapters/source/read-git-commit.js';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import { bindingRecord, parseBindingRecord } from '../../../src/core/publish/binding-record.js';
import { renderFleet } from '../../../src/core/render/render-fleet.js';
import { previousBindingOf } from '../../../src/core/publish/previous-binding-of.js';
import {
  branchFiles,
  commitChange,
  exampleFleetRepo,
  hubPass,
  removeFleetRepos,
  renderedByCli,
  rendered,
} from './hub-fixture.js';

after(removeFleetRepos);

// A policy that would win a fresh render (higher priority, exact name) but does not preempt.
const betterPolicy = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: web-staging-only
  namespace: shop
spec:
  priority: 10
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      namespace: shop
      name: web
  placement:
    clusterAffinity:
      clusterNames: [gcp-eu-staging]
`;

test('a claim read back from the bindings branch survives a restart: a later, better policy does not take the template', async () => {
  const repo = exampleFleetRepo({ bare: true });
  await hubPass(repo);
  commitChange(repo, 'add a staging-only policy', (work) =>
    writeFileSync(join(work, 'policies/web-staging-only.yaml'), betterPolicy),
  );
  // A fresh render, with no history, gives the template to the better policy ...
  const fresh = await renderedByCli(repo);
  assert.ok(fresh.get('gcp-eu-staging')?.has('shop/Deployment.apps/web.yaml'));
  assert.ok(!fresh.get('aws-eu-prod')?.has('shop/Deployment.apps/web.yaml'));
  // ... while the hub, started anew (a cold cache), keeps the claim it recorded.
  const result = rendered(await hubPass(repo));
  assert.equal(result.clusters['gcp-eu-staging']?.type, 'unchanged');
  const web = branchFiles(repo, 'gitfleet/clusters/aws-eu-prod').get('shop/Deployment.apps/web.yaml') ?? '';
  assert.match(web, /gitfleet.io\/policy: PropagationPolicy\/shop\/web$/m);
  assert.ok(!branchFiles(repo, 'gitfleet/clusters/gcp-eu-staging').has('shop/Deployment.apps/web.yaml'));
  const record = branchFiles(repo, 'gitfleet/bindings').get('shop/Deployment.apps/web.yaml') ?? '';
  assert.match(record, /propagationpolicy.karmada.io\/name: web$/m);
});

test('what the hub remembers of a binding is what its record reads back as', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const { files } = await readGitSource({ dir: repo.path, ref: 'main' });
  const loaded = loadFleet(files);
  assert.ok(loaded.ok);
  const { bindings } = renderFleet(freshSnapshot(loaded.fleet));
  assert.ok(
    bindings.some((b) => !b.policy) && bindings.some((b) => b.policy?.kind === 'ClusterPropagationPolicy'),
  );
  for (const binding of bindings) {
    assert.deepEqual(
      previousBindingOf(binding),
      parseBindingRecord(bindingRecord(binding)) ?? null,
      binding.key,
    );
  }
});
