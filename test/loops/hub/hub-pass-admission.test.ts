// The hub and a ValidatingAdmissionPolicy's denial (docs/admission-policies.md): the denied copy
// is an error diagnostic of the pass and the cluster's branch keeps what it had for that object,
// as for any render error; the other cluster, where the policy passes it, gets the change.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseFleet, deploymentYaml, policyYaml } from '../../core/admission/admission-fleet.js';
import { branchFiles, commitChange, fleetRepoWith, removeFleetRepos, rendered } from './hub-fixture.js';
import { restartedHubPass, usedLine } from './hub-memo-fixture.js';

after(removeFleetRepos);

const web = 'shop/Deployment.apps/web.yaml';

test('a new image on a Deployment a policy denies on west: west keeps its last good copy, east gets the image', async () => {
  const files = baseFleet();
  files.set(
    'policies/max-replicas.yaml',
    policyYaml({
      name: 'pinned',
      expression:
        "object.spec.template.spec.containers.all(c, !c.image.endsWith(':latest')) || object.spec.replicas < 3",
      message: 'an image with more than 2 replicas is pinned to a version',
    }),
  );
  const repo = fleetRepoWith(Object.fromEntries(files), { bare: false });
  // Each pass is a hub just restarted: it reads the memo (the admission verdicts in it) the last one wrote.
  const first = rendered((await restartedHubPass(repo)).result);
  assert.deepEqual(
    first.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  const west = 'gitfleet/clusters/west';
  const east = 'gitfleet/clusters/east';
  const before = branchFiles(repo, west).get(web);
  assert.match(before ?? '', /nginx:1\.27/);
  commitChange(repo, 'web runs latest', (work) => {
    writeFileSync(join(work, 'shop/web.yaml'), deploymentYaml('web', 2, 'nginx:latest'));
  });
  const restarted = await restartedHubPass(repo);
  assert.ok(restarted.lines.includes(usedLine(repo)), restarted.lines.join('\n'));
  const second = rendered(restarted.result);
  assert.deepEqual(
    second.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.subject, d.cluster]),
    [['AdmissionDenied', 'Deployment/shop/web', 'west']],
  );
  assert.match(
    second.diagnostics.find((d) => d.code === 'AdmissionDenied')!.message,
    /ValidatingAdmissionPolicy\/pinned \(binding pinned-binding\) on cluster west: an image with more than 2 replicas is pinned/,
  );
  assert.equal(branchFiles(repo, west).get(web), before);
  assert.match(branchFiles(repo, east).get(web) ?? '', /nginx:latest/);
});
