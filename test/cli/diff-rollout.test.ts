// gitfleet diff on a fleet with a RolloutStrategy: the preview names the clusters a merge
// reaches first, step by step, and what no rollout holds. Real repositories, base and head
// as two commits of main.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, commitAll, initRepo, writeFiles } from '../adapters/source/git-fixture.js';
import { clusterDoc } from '../support/fleet-docs.js';
import { runCli } from './run-cli.js';

after(cleanup);

const prodCluster = (name: string) =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${name}, labels: {env: prod}}\nspec: {syncMode: Pull}\n`;

function deployment(name: string, image: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: ${name}, image: '${image}'}]
`;
}

const settings = (mode: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\ndata: {mode: ${mode}}\n`;

const fleet = {
  'clusters/member1.yaml': clusterDoc('member1'),
  'clusters/member2.yaml': prodCluster('member2'),
  'clusters/member3.yaml': prodCluster('member3'),
  'apps/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n',
  'policies/shop.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: shop, namespace: shop}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment}
    - {apiVersion: v1, kind: ConfigMap}
  placement:
    replicaScheduling: {replicaSchedulingType: Duplicated}
`,
  'rollouts/web.yaml': `apiVersion: gitfleet.io/v1alpha1
kind: RolloutStrategy
metadata: {name: web, namespace: shop}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: web}
  steps:
    - clusters: {clusterNames: [member1]}
      soakSeconds: 300
    - clusters: {labelSelector: {matchLabels: {env: prod}}}
      approval: Manual
`,
  'apps/web.yaml': deployment('web', 'registry.example.com/web:1.0'),
  'apps/api.yaml': deployment('api', 'registry.example.com/api:1.0'),
  'apps/settings.yaml': settings('fast'),
};

/** The fleet on main, then a second commit with `change` written over it. */
function fleetChange(change: Record<string, string>): { repo: string; base: string; head: string } {
  const repo = initRepo();
  writeFiles(repo, fleet);
  const base = commitAll(repo, 'fleet');
  writeFiles(repo, change);
  const head = commitAll(repo, 'change');
  return { repo, base, head };
}

const webLine =
  'rollout shop/web: step 1 member1 first (soak 300s), then step 2 member2, member3 (approval: Manual)';

test('an image change of the selected Deployment lists member1 first, then the prod step, and nothing at once', async () => {
  const { repo, base, head } = fleetChange({
    'apps/web.yaml': deployment('web', 'registry.example.com/web:1.1'),
  });
  const run = await runCli(['diff', repo, base, head]);
  assert.equal(run.code, 6, run.stderr);
  const lines = run.stdout.split('\n');
  const at = lines.indexOf('# rollouts:');
  assert.ok(at >= 0, run.stdout);
  assert.deepEqual(lines.slice(at, at + 6), [
    '# rollouts:',
    `#   ${webLine}`,
    '# why:',
    "#   Deployment/shop/web: reaches member2, member3 in step 2 (after step 1 runs it Healthy and soaks 300s, once a person approves it with a Gitfleet-Approve trailer) of rollout shop/web, not in the merge's own hub pass",
    '',
    '# cluster member1: 0 added, 1 changed, 0 removed',
  ]);
  const md = await runCli(['diff', repo, base, head, '--format', 'markdown']);
  assert.equal(md.code, 6, md.stderr);
  assert.match(md.stdout, new RegExp(`\\*\\*Rollouts\\*\\*\\n\\n- ${escape(webLine)}\\n\\n`));
  assert.doesNotMatch(md.stdout, /not held/);
  const json = await runCli(['diff', repo, base, head, '--format', 'json']);
  const parsed = JSON.parse(json.stdout) as {
    rollout: { strategies: { strategy: string }[]; atOnce: string[] };
  };
  assert.deepEqual(
    parsed.rollout.strategies.map((s) => s.strategy),
    ['shop/web'],
  );
  assert.deepEqual(parsed.rollout.atOnce, []);
});

test('changes to objects the strategy does not select are said to reach every cluster at once', async () => {
  const { repo, base, head } = fleetChange({
    'apps/web.yaml': deployment('web', 'registry.example.com/web:1.1'),
    'apps/api.yaml': deployment('api', 'registry.example.com/api:1.1'),
    'apps/settings.yaml': settings('slow'),
  });
  const run = await runCli(['diff', repo, base, head]);
  assert.equal(run.code, 6, run.stderr);
  const rollout = run.stdout
    .split('\n')
    .filter((l) => l.startsWith('#   rollout ') || l.startsWith('#   not held'));
  assert.deepEqual(rollout, [
    `#   ${webLine}`,
    '#   not held: the other changes reach member1, member2, member3 at once (objects no rollout strategy selects, new placements, removals, replica counts)',
  ]);
  const md = await runCli(['diff', repo, base, head, '--format', 'markdown']);
  assert.match(md.stdout, /^- not held: the other changes reach member1, member2, member3 at once /m);
});

test('a change the strategy does not select has no rollout line; a fleet without strategies no rollout section', async () => {
  const unselected = fleetChange({ 'apps/settings.yaml': settings('slow') });
  const run = await runCli(['diff', unselected.repo, unselected.base, unselected.head]);
  assert.equal(run.code, 6, run.stderr);
  assert.doesNotMatch(run.stdout, /^# {3}rollout /m);
  assert.match(run.stdout, /^# {3}not held: the other changes reach member1, member2, member3 at once/m);
  const plain = initRepo();
  writeFiles(plain, { ...fleet, 'rollouts/web.yaml': '' });
  const base = commitAll(plain, 'fleet without a rollout strategy');
  writeFiles(plain, { 'apps/web.yaml': deployment('web', 'registry.example.com/web:1.1') });
  const head = commitAll(plain, 'new web image');
  const none = await runCli(['diff', plain, base, head]);
  assert.equal(none.code, 6, none.stderr);
  // The compared line quotes the commit subjects, which say "rollout" here.
  assert.doesNotMatch(none.stdout.replace(/^# compared: .*$/m, ''), /rollout/);
  const json = await runCli(['diff', plain, base, head, '--format', 'json']);
  assert.equal((JSON.parse(json.stdout) as { rollout?: unknown }).rollout, undefined);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
