// Per-cluster rendering against the real helm: a HelmSource renders once per distinct set of
// per-cluster inputs (clusterValues, and the reported version and APIs when the chart reads
// .Capabilities), each group's output equals `helm template --kube-version --api-versions` run
// directly with the same values (holdout), a change to one cluster's facts renders only its
// group again, and a chart whose output changes from run to run is an error naming the object.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import type { ClusterStatus } from '../../../src/core/model/cluster.js';
import { SourceRenderer } from '../../../src/adapters/render-tools/source-renderer.js';
import { directorySourceTree } from '../../../src/adapters/render-tools/source-tree.js';
import { readDirectorySource } from '../../../src/adapters/source/read-directory.js';
import {
  capsChart,
  capsSource,
  clusterDocument,
  helmSource,
  webChart,
  writeFiles,
  yamlDocuments as documents,
} from '../../support/chart-fixtures.js';
import { renderTools } from '../../support/render-tools.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

after(removeTempDirs);
const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;
const helmPath = 'missing' in tools ? '' : tools.helm;

const clusters = {
  'clusters/member1.yaml': clusterDocument('member1'),
  'clusters/member2.yaml': clusterDocument('member2'),
  'clusters/member3.yaml': clusterDocument('member3', { region: 'eu' }),
};
const monitoring = {
  groupVersion: 'monitoring.coreos.com/v1',
  resources: [{ name: 'servicemonitors', kind: 'ServiceMonitor' }],
};
const apps = { groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] };
const facts = (member2Version = 'v1.31.0'): Map<string, ClusterStatus> =>
  new Map([
    ['member1', { kubernetesVersion: 'v1.34.4', apiEnablements: [apps, monitoring] }],
    ['member2', { kubernetesVersion: member2Version, apiEnablements: [apps] }],
    ['member3', { kubernetesVersion: 'v1.34.4', apiEnablements: [apps, monitoring] }],
  ]);

async function fleetIn(files: Record<string, string>) {
  const dir = tempDir('per-cluster');
  writeFiles(dir, { ...clusters, ...files });
  const loaded = loadFleet(await readDirectorySource(dir));
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  return { dir, fleet: loaded.fleet, sources: loaded.fleet.templateSources ?? [] };
}

const renderer = () => new SourceRenderer({ helm: helmPath, env: {} });

test(
  'each group of clusters gets what helm template renders with its values, kube version and API versions',
  { skip },
  async () => {
    const { dir, fleet, sources } = await fleetIn({
      ...capsChart,
      'sources/caps.yaml': capsSource({
        values: 'replicas: 2',
        clusterValues:
          '- clusterSelector: {matchLabels: {region: eu}}\n  values: {greeting: bonjour, replicas: 4}',
      }),
    });
    const ours = await renderer().renderAll(sources, directorySourceTree(dir), {
      clusters: fleet.clusters,
      status: facts(),
    });
    assert.deepEqual(ours.errors, []);
    assert.equal(ours.runs, 3, 'member1, member2 (other facts) and member3 (other values): three renders');
    assert.deepEqual(
      ours.variants.map((v) => [v.base.clusters, v.clusters]),
      [
        [['member1'], ['member2']],
        [['member1'], ['member3']],
      ],
    );
    writeFileSync(join(dir, 'inline.yaml'), 'replicas: 2\n');
    writeFileSync(join(dir, 'eu.yaml'), 'greeting: bonjour\nreplicas: 4\n');
    const direct = (extra: string[]) =>
      execFileSync(
        helmPath,
        ['template', 'caps', 'charts/caps', '--namespace', 'shop', '-f', 'inline.yaml', ...extra],
        {
          cwd: dir,
          encoding: 'utf8',
          env: { HOME: dir },
        },
      );
    const full = ['--api-versions', 'apps/v1', '--api-versions', 'apps/v1/Deployment'];
    const withMonitoring = [
      ...full,
      '--api-versions',
      'monitoring.coreos.com/v1',
      '--api-versions',
      'monitoring.coreos.com/v1/ServiceMonitor',
    ];
    const member1 = direct(['--kube-version', 'v1.34.4', ...withMonitoring]);
    const member2 = direct(['--kube-version', 'v1.31.0', ...full]);
    const member3 = direct(['-f', 'eu.yaml', '--kube-version', 'v1.34.4', ...withMonitoring]);
    assert.deepEqual(documents(ours.files.map((f) => f.content)), documents([member1]));
    assert.deepEqual(documents(ours.variants[0]!.files.map((f) => f.content)), documents([member2]));
    assert.deepEqual(documents(ours.variants[1]!.files.map((f) => f.content)), documents([member3]));
    assert.match(member1, /kubeVersion: "v1\.34\.4"\n +monitoring: "true"/);
    assert.match(member2, /kubeVersion: "v1\.31\.0"\n +monitoring: "false"/);
    assert.match(member3, /greeting: "bonjour"/);
    assert.match(member3, /replicas: 4/);
  },
);

test(
  'a chart that does not read .Capabilities renders once, whatever the clusters report',
  { skip },
  async () => {
    const { dir, fleet, sources } = await fleetIn({ ...webChart, 'sources/web.yaml': helmSource() });
    const ours = await renderer().renderAll(sources, directorySourceTree(dir), {
      clusters: fleet.clusters,
      status: facts(),
    });
    assert.deepEqual([ours.errors, ours.runs, ours.variants], [[], 1, []]);
  },
);

test('a change to one cluster’s facts renders only its group again', { skip }, async () => {
  const { dir, fleet, sources } = await fleetIn({ ...capsChart, 'sources/caps.yaml': capsSource() });
  const r = renderer();
  const tree = directorySourceTree(dir);
  const first = await r.renderAll(sources, tree, { clusters: fleet.clusters, status: facts() });
  assert.deepEqual([first.runs, first.reused], [2, 0], 'member1 and member3 report the same: one render');
  const same = await r.renderAll(sources, tree, { clusters: fleet.clusters, status: facts() });
  assert.deepEqual([same.runs, same.reused], [0, 2]);
  const moved = await r.renderAll(sources, tree, { clusters: fleet.clusters, status: facts('v1.32.1') });
  assert.deepEqual([moved.runs, moved.reused], [1, 1]);
  assert.match(moved.variants[0]!.files.map((f) => f.content).join(''), /kubeVersion: "v1\.32\.1"/);
});

test(
  'a chart whose output changes from run to run is an error naming the source, the object and the function',
  { skip },
  async () => {
    const secret = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: {{ .Release.Name }}-password',
      'stringData:',
      '  password: {{ .Values.password | default (randAlphaNum 16) | quote }}',
      '',
    ].join('\n');
    const { dir, fleet, sources } = await fleetIn({
      ...webChart,
      'charts/web/templates/secret.yaml': secret,
      'sources/web.yaml': helmSource(),
    });
    const out = await renderer().renderAll(sources, directorySourceTree(dir), {
      clusters: fleet.clusters,
      status: facts(),
    });
    assert.equal(out.files.length, 0, 'never an empty or random render');
    assert.equal(out.errors.length, 1);
    assert.equal(out.errors[0]!.file, 'sources/web.yaml');
    assert.equal(
      out.errors[0]!.message,
      'HelmSource/web: chart charts/web: Secret/web-password (web/templates/secret.yaml) differs between two renders of the same inputs: the chart calls randAlphaNum, whose value changes from run to run; set the value in values instead, so every pass renders the same objects',
    );
    const given = await fleetIn({
      ...webChart,
      'charts/web/templates/secret.yaml': secret,
      'sources/web.yaml': helmSource({ values: 'password: s3cret' }),
    });
    const fixed = await renderer().renderAll(given.sources, directorySourceTree(given.dir));
    assert.deepEqual(fixed.errors, []);
    assert.equal(fixed.runs, 2, 'rendered twice on first sight, and the same both times');
  },
);

test('new values for one cluster render only its group again', { skip }, async () => {
  const sourceWith = (greeting: string) =>
    capsSource({ clusterValues: `- clusterNames: [member2]\n  values: {greeting: ${greeting}}` });
  const { dir, fleet, sources } = await fleetIn({ ...capsChart, 'sources/caps.yaml': sourceWith('hola') });
  const r = renderer();
  const tree = directorySourceTree(dir);
  const first = await r.renderAll(sources, tree, { clusters: fleet.clusters, status: new Map() });
  assert.deepEqual([first.errors, first.runs, first.reused], [[], 2, 0]);
  writeFiles(dir, { 'sources/caps.yaml': sourceWith('ciao') });
  const reloaded = loadFleet(await readDirectorySource(dir));
  assert.ok(reloaded.ok);
  const changed = await r.renderAll(reloaded.fleet.templateSources ?? [], tree, {
    clusters: fleet.clusters,
    status: new Map(),
  });
  assert.deepEqual([changed.runs, changed.reused], [1, 1], 'member1 and member3 kept their render');
  assert.match(changed.variants[0]!.files.map((f) => f.content).join(''), /greeting: "ciao"/);
});
