// `gitfleet validate` and unknown fields: a typo in a Karmada policy fails validation naming the
// file and line; a typo in a Deployment is a warning and the fleet stays valid.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { aFleetDir } from '../faults/fleet-dir.js';
import { runCli } from './run-cli.js';

const dir = aFleetDir();
after(() => dir.remove());

const policy = (placementKey: string) =>
  [
    'apiVersion: policy.karmada.io/v1alpha1',
    'kind: PropagationPolicy',
    'metadata: {name: web, namespace: default}',
    'spec:',
    '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]',
    '  placement:',
    `    ${placementKey}: {clusterNames: [c1]}`,
    '',
  ].join('\n');

const deployment = (pullPolicyKey: string) =>
  [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: {name: web, namespace: default}',
    'spec:',
    '  selector: {matchLabels: {app: web}}',
    '  template:',
    '    metadata: {labels: {app: web}}',
    '    spec:',
    '      containers:',
    '        - name: web',
    '          image: nginx:1.27',
    `          ${pullPolicyKey}: IfNotPresent`,
    '',
  ].join('\n');

test('validate fails on a misspelled policy field, naming the file, the line and the field meant.', async () => {
  dir.write('apps/web.yaml', deployment('imagePullPolicy'));
  dir.write('policies/web.yaml', policy('clusterAfinity'));
  const run = await runCli(['validate', dir.fleet]);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /^policies\/web\.yaml#0:7: PropagationPolicy\/default\/web: spec\.placement\.clusterAfinity: unknown field; did you mean clusterAffinity\?$/m,
  );
});

test('validate only warns on a misspelled Deployment field, naming the file and the line, and exits 0.', async () => {
  dir.write('apps/web.yaml', deployment('imagePullPolice'));
  dir.write('policies/web.yaml', policy('clusterAffinity'));
  const run = await runCli(['validate', dir.fleet]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /^warning: apps\/web\.yaml#0:12: Deployment\/default\/web: spec\.template\.spec\.containers\[0\]\.imagePullPolice: unknown field .*; did you mean imagePullPolicy\?$/m,
  );
  assert.match(run.stdout, /valid$/);
});

test('validate --output json lists the warnings beside a valid result.', async () => {
  dir.write('apps/web.yaml', deployment('imagePullPolice'));
  dir.write('policies/web.yaml', policy('clusterAffinity'));
  const run = await runCli(['validate', dir.fleet, '--output', 'json']);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as { valid: boolean; loadWarnings: { file: string; line: number }[] };
  assert.equal(result.valid, true);
  assert.deepEqual(
    result.loadWarnings.map((w) => [w.file, w.line]),
    [['apps/web.yaml', 12]],
  );
});
