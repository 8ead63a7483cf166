// `gitfleet render` and `validate` of a fleet whose templates come from a Helm chart and a
// Kustomize overlay: policies select the rendered objects, overrides change them, replicas are
// divided, the rendered files name the source they came from; a chart that fails is a load
// error naming the source document and the chart file, and nothing is written.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './run-cli.js';
import { helmSource, overlay, webChart, writeFiles } from '../support/chart-fixtures.js';
import { renderTools } from '../support/render-tools.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeTempDirs);
const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;
const toolFlags = 'missing' in tools ? [] : ['--helm', tools.helm, '--kustomize', tools.kustomize];

const cluster = (name: string) =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n  labels: {env: prod}\n`;

const fleet = {
  ...webChart,
  ...overlay,
  'sources/web.yaml': helmSource({ values: 'replicas: 4' }),
  'clusters/east.yaml': cluster('east'),
  'clusters/west.yaml': cluster('west'),
  'policies/shop.yaml': [
    'apiVersion: policy.karmada.io/v1alpha1',
    'kind: PropagationPolicy',
    'metadata: {name: shop, namespace: shop}',
    'spec:',
    '  resourceSelectors:',
    '    - {apiVersion: apps/v1, kind: Deployment}',
    '    - {apiVersion: v1, kind: Service}',
    '  placement:',
    '    clusterAffinity: {clusterNames: [east, west]}',
    '    replicaScheduling:',
    '      replicaSchedulingType: Divided',
    '      replicaDivisionPreference: Weighted',
    '      weightPreference:',
    '        staticWeightList:',
    '          - {targetCluster: {clusterNames: [east]}, weight: 1}',
    '          - {targetCluster: {clusterNames: [west]}, weight: 1}',
    '---',
    'apiVersion: policy.karmada.io/v1alpha1',
    'kind: OverridePolicy',
    'metadata: {name: west-image, namespace: shop}',
    'spec:',
    '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]',
    '  overrideRules:',
    '    - targetCluster: {clusterNames: [west]}',
    '      overriders:',
    '        imageOverrider: [{component: Registry, operator: add, value: mirror.example.com}]',
    '',
  ].join('\n'),
};

test(
  'rendered chart and overlay objects are placed, divided and overridden as committed YAML would be',
  { skip },
  async () => {
    const repo = tempDir('render-sources');
    writeFiles(repo, fleet);
    const out = join(repo, '..', `${repo.split('/').pop()}-out`);
    const run = await runCli(['render', repo, '--out', out, ...toolFlags]);
    assert.equal(run.code, 0, run.stderr);
    const east = readFileSync(join(out, 'east/shop/Deployment.apps/web.yaml'), 'utf8');
    const west = readFileSync(join(out, 'west/shop/Deployment.apps/web.yaml'), 'utf8');
    assert.match(east, /replicas: 2\n/);
    assert.match(west, /replicas: 2\n/);
    assert.match(east, /image: nginx:1\.27/);
    assert.match(west, /image: mirror\.example\.com\/nginx:1\.27/);
    assert.match(
      east,
      /sources\/web\.yaml@web\/templates\/deployment\.yaml/,
      'the object names the source and chart file it came from',
    );
    // The overlay's Deployment: renamed and scaled by kustomize, then divided by the policy.
    assert.match(readFileSync(join(out, 'east/shop/Deployment.apps/prod-api.yaml'), 'utf8'), /replicas: 2\n/);
    assert.ok(existsSync(join(out, 'west/shop/Service/web.yaml')));
    assert.ok(
      !existsSync(join(out, 'east/shop/ConfigMap/web-config.yaml')),
      'the chart leaves it out by its values',
    );
  },
);

test(
  'a chart that fails to render fails render and validate, naming the source and the chart file',
  { skip },
  async () => {
    const repo = tempDir('render-sources-bad');
    writeFiles(repo, {
      ...fleet,
      'charts/web/templates/service.yaml': 'kind: Service\nmetadata:\n  name: {{ .Values.missing.key }}\n',
    });
    const out = join(repo, '..', `${repo.split('/').pop()}-out`);
    const run = await runCli(['render', repo, '--out', out, ...toolFlags]);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^sources\/web\.yaml#0:1: HelmSource\/web: chart charts\/web: helm v4\.3\.2 failed: .*web\/templates\/service\.yaml:3:/m,
    );
    assert.ok(!existsSync(out), 'nothing is written');
    const validate = await runCli(['validate', repo, ...toolFlags]);
    assert.equal(validate.code, 1);
    assert.match(validate.stderr, /web\/templates\/service\.yaml:3:/);
  },
);

test('diff of a values change shows, per cluster, the rendered objects that change', { skip }, async () => {
  const repo = tempDir('diff-sources');
  writeFiles(repo, fleet);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: repo,
      encoding: 'utf8',
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'web with 4 replicas');
  writeFiles(repo, { 'sources/web.yaml': helmSource({ values: 'replicas: 6' }) });
  git('commit', '-qam', 'web with 6 replicas');
  const run = await runCli(['diff', repo, 'HEAD~1', 'HEAD', '--no-hub-state', ...toolFlags]);
  assert.equal(run.code, 6, run.stderr);
  for (const cluster of ['east', 'west']) {
    const section = run.stdout
      .split(/^(?=diff )/m)
      .find((s) => s.includes(`${cluster}/shop/Deployment.apps/web.yaml`));
    assert.ok(section, `${cluster}: ${run.stdout}`);
    assert.match(section, /^- {2}replicas: 2$/m);
    assert.match(section, /^\+ {2}replicas: 3$/m);
  }
  assert.doesNotMatch(run.stdout, /prod-api/, 'the overlay did not change');
});
