// Template sources end to end, as a user runs them (docs/sources.md): the fleet of
// examples/sources-fleet (a chart in the repository with values of its own for the `region: eu`
// cluster, and a Kustomize overlay) in a git repository, `gitfleet hub --helm --kustomize` and
// one `gitfleet agent` per test cluster as long-running processes, and kubectl. The chart's
// objects are live on both clusters with member2's own values and its override; each cluster's
// ConfigMap says the Kubernetes version its own API server reports (Helm's .Capabilities, from
// the agents' status reports); a values change reaches both clusters.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fleetSteps, startFleet } from '../support/running-fleet.js';
import { renderTools } from '../support/render-tools.js';
import { commitChange, fleetRepoWith, removeFleetRepos, repoRoot } from '../loops/hub/hub-fixture.js';
import { deleteNamespaceEverywhere, kubectl } from '../kube/agent-fixture.js';
import { eventually, uniqueName } from '../kube/test-clusters.js';

const tools = renderTools();
const example = join(repoRoot, 'examples/sources-fleet');
const ns = uniqueName('sources');
const clusters = ['member1', 'member2'];
after(() => {
  deleteNamespaceEverywhere(ns);
  removeFleetRepos();
});

// The example's files, in this test's own namespace.
function exampleFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(example, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (!path.endsWith('.md')) {
        const text = readFileSync(join(example, path), 'utf8').replaceAll(
          'namespace: storefront',
          `namespace: ${ns}`,
        );
        files[path] = path === 'apps/namespace.yaml' ? text.replace('name: storefront', `name: ${ns}`) : text;
      }
    }
  };
  walk('');
  return files;
}

const get = (cluster: string, what: string[], path: string): string | undefined => {
  try {
    return kubectl(['get', ...what, '-n', ns, '-o', `jsonpath=${path}`], { context: cluster });
  } catch {
    return undefined;
  }
};
const greeting = (c: string) => get(c, ['configmap', 'storefront-settings'], '{.data.GREETING}');
const replicas = (c: string) => get(c, ['deployment', 'storefront'], '{.spec.replicas}');

test(
  'a chart and an overlay through the loops: per-cluster values and capabilities on each cluster, a values change reaching both',
  { skip: 'missing' in tools ? tools.missing : false, timeout: 600_000 },
  async (t) => {
    assert.ok(!('missing' in tools));
    const repo = fleetRepoWith(exampleFiles(), { bare: false });
    const fleet = startFleet(repo.path, clusters, process.env['GITFLEET_TEST_KUBECONFIG']!, {
      hub: ['--helm', tools.helm, '--kustomize', tools.kustomize],
    });
    t.after(() => fleet.stop());
    const step = fleetSteps(t, fleet, 80);

    await step('the chart is live on both clusters, member2 with its own values and override', async () => {
      await eventually('member1 greets', async () => (greeting('member1') === 'hello' ? true : undefined));
      await eventually('member2 greets', async () => (greeting('member2') === 'bonjour' ? true : undefined));
      assert.equal(replicas('member1'), '1');
      assert.equal(replicas('member2'), '2');
      assert.equal(get('member2', ['deployment', 'storefront'], '{.metadata.labels.served-from}'), 'eu');
      assert.equal(get('member1', ['deployment', 'storefront'], '{.metadata.labels.served-from}'), '');
      for (const c of clusters)
        assert.equal(
          get(c, ['service', 'storefront-web'], '{.metadata.labels.tier}'),
          'prod',
          `the overlay's Service on ${c}`,
        );
    });

    await step('each cluster’s ConfigMap says the version its own API server reports', async () => {
      for (const c of clusters) {
        const reported = (
          JSON.parse(kubectl(['get', '--raw', '/version'], { context: c })) as { gitVersion: string }
        ).gitVersion;
        await eventually(`${c} renders with ${reported}`, async () =>
          get(c, ['configmap', 'storefront-settings'], '{.data.KUBE_VERSION}') === reported
            ? true
            : undefined,
        );
      }
    });

    await step('a values change reaches both clusters', async () => {
      commitChange(repo, 'a new greeting, and three replicas in the eu', (work) => {
        const file = join(work, 'sources/storefront.yaml');
        const text = readFileSync(file, 'utf8');
        writeFileSync(
          file,
          text.replace('greeting: hello', 'greeting: howdy').replace('replicas: 2', 'replicas: 3'),
        );
      });
      await eventually('member1 has the new greeting', async () =>
        greeting('member1') === 'howdy' ? true : undefined,
      );
      await eventually('member2 has three replicas', async () =>
        replicas('member2') === '3' ? true : undefined,
      );
      assert.equal(greeting('member2'), 'bonjour', 'member2 keeps its own greeting');
      assert.equal(replicas('member1'), '1');
    });
  },
);
