// The pull-request comment says why: `gitfleet diff` of a change that pushes a ServiceImport to
// clusters whose agents report no MCS CRDs (hub state recorded by real hub passes) names, in
// every format, why the template goes nowhere and what to do, in the words `status` uses.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { explainFixture } from './explain-fixture.js';
import { runCli } from './run-cli.js';

after(removeFleetRepos);

const { repo, base } = await explainFixture({ renderImport: false });
const why =
  'ServiceImport/shop/web: 0/3 clusters are available: m1 lacks the CRD multicluster.x-k8s.io ServiceImport: propagate the MCS CRDs to it (docs/multi-cluster-services.md#the-crds-on-the-member-clusters); m2: the same; m3 has taint dedicated=gpu:NoSchedule, which PropagationPolicy/shop/web-import does not tolerate: add a matching toleration to its placement.clusterTolerations, or remove the taint';

test('the text diff says why the new ServiceImport is placed nowhere', async () => {
  const run = await runCli(['diff', repo.path, base, 'main']);
  assert.equal(run.code, 6, run.stderr);
  const lines = run.stdout.split('\n');
  const at = lines.indexOf('# why:');
  assert.ok(at > 0, run.stdout);
  assert.equal(lines[at + 1], `#   ${why}`);
});

test('the markdown comment and the JSON say the same, structured in JSON', async () => {
  const md = await runCli(['diff', repo.path, base, 'main', '--format', 'markdown']);
  assert.match(
    md.stdout,
    /\*\*Why\*\*\n\n- `ServiceImport\/shop\/web`: 0\/3 clusters are available: m1 lacks the CRD /,
  );
  assert.match(
    md.stdout,
    /docs\/multi-cluster-services\.md#the-crds-on-the-member-clusters\); m2: the same; /,
  );
  const json = JSON.parse((await runCli(['diff', repo.path, base, 'main', '--format', 'json'])).stdout) as {
    why: {
      template: string;
      reason: string;
      clusters: { cluster: string; reason: string; filter: string }[];
    }[];
  };
  assert.deepEqual(
    json.why.map((w) => [w.template, w.reason, w.clusters.map((c) => [c.cluster, c.reason, c.filter])]),
    [
      [
        'ServiceImport/shop/web',
        'NoClusterFit',
        [
          ['m1', 'ApiNotServed', 'APIEnablement'],
          ['m2', 'ApiNotServed', 'APIEnablement'],
          ['m3', 'TaintNotTolerated', 'TaintToleration'],
        ],
      ],
    ],
  );
});

test("without the hub's state no agent's API list is known: the ServiceImport is placed but on the tainted cluster, and that is the why", async () => {
  const run = await runCli(['diff', repo.path, base, 'main', '--no-hub-state']);
  assert.equal(run.code, 6, run.stderr);
  const lines = run.stdout.split('\n');
  const at = lines.indexOf('# why:');
  assert.deepEqual(lines.slice(at + 1, at + 2), [
    '#   ServiceImport/shop/web: m3 has taint dedicated=gpu:NoSchedule, which PropagationPolicy/shop/web-import does not tolerate: add a matching toleration to its placement.clusterTolerations, or remove the taint',
  ]);
});
