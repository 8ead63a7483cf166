// The hub renders a chart per cluster where its inputs differ: clusterValues give member2 its own
// content, each cluster's reported Kubernetes version and APIs reach the chart's .Capabilities,
// and a change to one cluster's report renders only that cluster's group again.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceRenderer, type SourcesRendered } from '../../../src/adapters/render-tools/source-renderer.js';
import { statusBranchFiles } from '../../../src/core/status/status-branch.js';
import {
  branchFiles,
  commitChange,
  commitStatusBranch,
  fleetRepoWith,
  git,
  hubPass,
  removeFleetRepos,
  rendered,
  type FleetRepo,
} from './hub-fixture.js';
import { previewDiff } from '../../../src/loops/preview/preview-diff.js';
import { capsChart, capsSource, clusterDocument } from '../../support/chart-fixtures.js';
import { renderTools } from '../../support/render-tools.js';

after(removeFleetRepos);
const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;

const fleet = {
  ...capsChart,
  'sources/caps.yaml': capsSource({
    clusterValues: '- clusterNames: [member2]\n  values: {greeting: hola, replicas: 3}',
  }),
  'clusters/member1.yaml': clusterDocument('member1'),
  'clusters/member2.yaml': clusterDocument('member2'),
  'policies/shop.yaml': [
    'apiVersion: policy.karmada.io/v1alpha1',
    'kind: PropagationPolicy',
    'metadata: {name: shop, namespace: shop}',
    'spec:',
    '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}, {apiVersion: v1, kind: ConfigMap}]',
    '  placement: {clusterAffinity: {clusterNames: [member1, member2]}}',
    '',
  ].join('\n'),
};

function countingRenderer() {
  const inner = new SourceRenderer({ ...('missing' in tools ? {} : { helm: tools.helm }), env: {} });
  const calls: SourcesRendered[] = [];
  const renderer = {
    variantMemo: inner.variantMemo,
    async renderAll(...args: Parameters<SourceRenderer['renderAll']>) {
      const out = await inner.renderAll(...args);
      calls.push(out);
      return out;
    },
  };
  return { calls, renderer };
}

// A report of member1 saying its version and that it serves ServiceMonitors (replacing any before).
async function reportFacts(repo: FleetRepo, kubernetesVersion: string): Promise<void> {
  git(repo, ['update-ref', '-d', 'refs/heads/gitfleet/status/member1']);
  const clusterStatus = {
    kubernetesVersion,
    conditions: [{ type: 'Ready', status: 'True' as const }],
    apiEnablements: [
      {
        groupVersion: 'monitoring.coreos.com/v1',
        resources: [{ name: 'servicemonitors', kind: 'ServiceMonitor' }],
      },
    ],
  };
  await commitStatusBranch(
    repo,
    'member1',
    statusBranchFiles({ cluster: 'member1', appliedCommit: null, clusterStatus, objects: [] }),
  );
}

test(
  'each cluster branch gets its own render of the chart, and a cluster’s new report renders only its group',
  { skip },
  async () => {
    const repo = fleetRepoWith(fleet, { bare: true });
    const { calls, renderer } = countingRenderer();
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    const files = (cluster: string) => branchFiles(repo, `gitfleet/clusters/${cluster}`);
    const configOf = (cluster: string) => files(cluster).get('shop/ConfigMap/caps-facts.yaml') ?? '';
    const deploymentOf = (cluster: string) => files(cluster).get('shop/Deployment.apps/caps.yaml') ?? '';
    assert.match(configOf('member1'), /greeting: hello/);
    assert.match(deploymentOf('member1'), /replicas: 1\n/);
    assert.match(configOf('member2'), /greeting: hola/);
    assert.match(
      deploymentOf('member2'),
      /replicas: 3\n/,
      'Duplicated: member2 runs its own values’ replicas',
    );
    assert.match(configOf('member1'), /monitoring: "false"/);
    const member2Before = files('member2');

    await reportFacts(repo, 'v1.34.4');
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    assert.match(configOf('member1'), /kubeVersion: v1\.34\.4/);
    assert.match(configOf('member1'), /monitoring: "true"/);
    assert.deepEqual(
      files('member2'),
      member2Before,
      'member2 reported nothing new: its branch is as it was',
    );
    assert.deepEqual(
      calls.map((c) => [c.runs, c.reused]),
      [
        [2, 0],
        [1, 1],
      ],
      'the second pass rendered member1’s group only',
    );
  },
);

test(
  'gitfleet diff previews with the clusters’ reports, as the hub’s next pass renders',
  { skip },
  async () => {
    const repo = fleetRepoWith(fleet, { bare: false });
    const { renderer } = countingRenderer();
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    const base = git(repo, ['rev-parse', 'main']).trim();
    await reportFacts(repo, 'v1.33.2');
    commitChange(repo, 'a new greeting', (work) => {
      const file = join(work, 'charts/caps/values.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('greeting: hello', 'greeting: hey'));
    });
    const preview = await previewDiff({ dir: repo.path, base, head: 'main', sourceRenderer: renderer });
    const firstPass = await previewDiff({
      dir: repo.path,
      base,
      head: 'main',
      hubState: 'none',
      sourceRenderer: renderer,
    });
    assert.match(preview.text, /kubeVersion: v1\.33\.2/, preview.text);
    assert.doesNotMatch(firstPass.text, /v1\.33\.2/, 'without the hub state, Helm’s defaults');
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    const member1 =
      branchFiles(repo, 'gitfleet/clusters/member1').get('shop/ConfigMap/caps-facts.yaml') ?? '';
    assert.match(member1, /kubeVersion: v1\.33\.2/);
    assert.match(member1, /greeting: hey/);
  },
);
