// End to end, the way a user runs it: `gitfleet hub --commit-status-token-file …` and one
// `gitfleet agent` per test cluster as long-running processes, a fleet repository, and a local
// server speaking GitHub's commit-status API. A commit's status goes from pending to success as
// the agents apply it, waits for an agent that is stopped, and a forge that hangs holds neither
// the hub's passes nor the agents.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { deleteNamespaceEverywhere, kubectl } from '../kube/agent-fixture.js';
import { eventually, uniqueName } from '../kube/test-clusters.js';
import { startFleet, type RunningFleet } from '../support/running-fleet.js';
import {
  startForgeStatusServer,
  type ForgeStatusServer,
  type KeptStatus,
} from '../support/forge-status-server.js';

const ns = uniqueName('cstatus');
const token = 'status-token-e2e-5a9c';
const slow = { timeout: 600_000 };
let fleet: RunningFleet | undefined;
let forge: ForgeStatusServer;
let repo: string;

function files(level: string): Record<string, string> {
  const cluster = (name: string) =>
    `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: { name: ${name} }\nspec: { syncMode: Pull }\n`;
  return {
    'clusters/member1.yaml': cluster('member1'),
    'clusters/member2.yaml': cluster('member2'),
    'apps/namespace.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: { name: ${ns} }\n`,
    'apps/settings.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings, namespace: ${ns} }\ndata: { LEVEL: ${level} }\n`,
    'policies.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: settings, namespace: ${ns} }
spec:
  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap, name: settings }]
  placement: { clusterAffinity: { clusterNames: [member1, member2] } }
`,
  };
}

/** Commits the fleet with the ConfigMap at `level`; returns the commit. */
async function commitFleet(level: string, message: string): Promise<string> {
  for (const [path, content] of Object.entries(files(level))) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  await git(repo, ['add', '-A']);
  await git(repo, ['commit', '-q', '-m', message]);
  return (await git(repo, ['rev-parse', 'HEAD'])).trim();
}

const level = (context: string): string => {
  try {
    return kubectl(['get', 'configmap', 'settings', '-n', ns, '-o', 'jsonpath={.data.LEVEL}'], { context });
  } catch {
    return '';
  }
};

/** Waits until the commit's last status is `state`; returns every status posted on it. */
function statusReaches(sha: string, state: string, description?: RegExp): Promise<KeptStatus[]> {
  return eventually(`${sha.slice(0, 7)} ${state}`, () => {
    const posted = forge.posted(sha);
    const last = posted.at(-1);
    const done = last?.state === state && (!description || description.test(last.description));
    return Promise.resolve(done ? posted : undefined);
  });
}

before(async () => {
  forge = await startForgeStatusServer({ kind: 'github', token, repository: 'acme/fleet' });
  repo = join(tempDir('cstatus-repo'), 'fleet');
  mkdirSync(repo, { recursive: true });
  await git(repo, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  const tokenFile = join(tempDir('cstatus-token'), 'token');
  writeFileSync(tokenFile, `${token}\n`);
  await commitFleet('info', 'the settings');
  const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
  const hub = [
    ...['--commit-status-token-file', tokenFile, '--commit-status-forge', 'github'],
    ...['--commit-status-api-url', forge.apiUrl, '--commit-status-repo', 'acme/fleet'],
  ];
  fleet = startFleet(repo, ['member1', 'member2'], kubeconfig, { hub });
});

after(async () => {
  await fleet?.stop();
  await forge?.close();
  deleteNamespaceEverywhere(ns);
  removeTempDirs();
});

test('a commit goes from pending to success as the agents apply it, in a few posts', slow, async () => {
  const first = (await git(repo, ['rev-parse', 'HEAD'])).trim();
  await statusReaches(first, 'success', /^healthy on 2\/2 clusters$/);
  const second = await commitFleet('debug', 'more logs');
  const posted = await statusReaches(second, 'success', /^healthy on 2\/2 clusters$/);
  assert.equal(posted[0]?.state, 'pending', posted.map((p) => p.description).join('\n'));
  assert.ok(posted.length <= 4, `${posted.length} statuses for one commit on two clusters`);
  assert.equal(level('member1'), 'debug');
  assert.equal(level('member2'), 'debug');
  const posts = forge.requests.filter((r) => r.method === 'POST');
  assert.ok(posts.every((r) => r.headers.authorization === `Bearer ${token}`));
  assert.ok(posts.every((r) => (r.body as { context: string }).context === 'gitfleet/deploy'));
});

test('a commit a stopped agent has not applied stays pending until that agent applies it', slow, async () => {
  await fleet!.stopAgent('member2');
  const third = await commitFleet('warn', 'quieter');
  await eventually('member1 applies it', () => Promise.resolve(level('member1') === 'warn' || undefined));
  await statusReaches(third, 'pending', /^healthy on 1\/2 clusters, 1 progressing$/);
  assert.equal(level('member2'), 'debug');
  fleet!.startAgent('member2');
  await statusReaches(third, 'success', /^healthy on 2\/2 clusters$/);
});

test(
  'a forge that hangs holds neither the passes nor the agents; the status follows once it answers',
  slow,
  async () => {
    forge.misbehave('hang');
    const fourth = await commitFleet('error', 'quietest');
    await eventually('both clusters apply it while the forge hangs', () =>
      Promise.resolve(level('member1') === 'error' && level('member2') === 'error' ? true : undefined),
    );
    assert.deepEqual(forge.posted(fourth), [], 'nothing was taken while it hung');
    forge.misbehave('none');
    await statusReaches(fourth, 'success', /^healthy on 2\/2 clusters$/);
    fleet!.assertRunning('hub');
  },
);
