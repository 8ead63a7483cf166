// What an agent whose branch lives in a render repository reads of the fleet repository
// (loops/agent/agent-branch-repo.ts): a refresh that moved its branch to an ordinary head reads
// the render repository alone, so a source push that moves every branch spends no read of the
// fleet repository; a refresh that found the branch where it was, a head that allows deletions
// here, and a tombstone read the bindings branch too; the start reads the fleet repository once
// (its mirror is the home of a branch that lives elsewhere too). The render repository is read
// through a mirror that a refresh fetches, as a remote one is; the fleet repository's refreshes
// are counted.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentBranchRepo } from '../../../src/loops/agent/agent-branch-repo.js';
import { localAgentRepo, type AgentRepo } from '../../../src/loops/agent/agent-repo.js';
import { RenderRepositories } from '../../../src/loops/hub/render-repositories.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { localHubRepo } from '../../../src/adapters/remote/hub-repo.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { commitChange, fleetRepoWith, hubPass, rendered, removeFleetRepos } from '../hub/hub-fixture.js';

after(removeFleetRepos);
after(removeTempDirs);

function bareRepo(): string {
  const dir = tempDir('render-reads');
  execFileSync('git', ['init', '-q', '--bare', dir]);
  return dir;
}

const cluster = (repository: string) =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member1\n  labels:\n    gitfleet.io/render-repository: ${repository}\n`;

const files = (a: string, b: string, value: string) => ({
  'fleet.yaml': `apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata:\n  name: fleet\nspec:\n  renderRepositories:\n    - name: a\n      url: ${a}\n    - name: b\n      url: ${b}\n`,
  'apps/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
  'apps/shop.yaml': configMap(value),
  'apps/policy.yaml': [
    'apiVersion: policy.karmada.io/v1alpha1',
    'kind: PropagationPolicy',
    'metadata: { name: shop, namespace: shop }',
    'spec:',
    '  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap }]',
    '  placement: { clusterAffinity: { clusterNames: [member1] } }',
    '',
  ].join('\n'),
  'clusters/member1.yaml': cluster('a'),
});

function configMap(value: string): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: shop\ndata:\n  a: "${value}"\n`;
}

/** A mirror of a render repository that its refresh fetches, as an agent's remote mirror. */
function mirrorOf(url: string, reads: string[]): AgentRepo {
  const gitdir = bareRepo();
  return {
    gitdir,
    description: url,
    refresh: () => {
      reads.push('render');
      execFileSync('git', ['--git-dir', gitdir, 'fetch', '-q', url, '+refs/heads/*:refs/heads/*']);
      return Promise.resolve();
    },
    publish: () => Promise.reject(new Error('read only')),
  };
}

/** The fleet repository in place, its refreshes counted. */
function countedFleet(path: string, reads: string[]): AgentRepo {
  const repo = localAgentRepo(path);
  return Object.assign(Object.create(repo) as AgentRepo, {
    refresh: () => {
      reads.push('fleet');
      return repo.refresh();
    },
  });
}

/** A fleet rendered into render repositories a and b, and member1's agent-side branch repo over it, its reads counted. */
async function renderedTwoRepos() {
  const [a, b] = [bareRepo(), bareRepo()];
  const repo = fleetRepoWith(files(a, b, '1'), { bare: true });
  const hub = new RenderRepositories({ open: localHubRepo, log: silentLogger() });
  rendered(await hubPass(repo, { renderRepositories: hub }));
  const reads: string[] = [];
  const fleet = countedFleet(repo.path, reads);
  const renders = new Map<string, AgentRepo>();
  const where = await agentBranchRepo(
    {
      fleet,
      fleetWithoutBranch: () => fleet,
      render: (url) => Promise.resolve(renders.get(url) ?? renders.set(url, mirrorOf(url, reads)).get(url)!),
    },
    { branchPrefix: 'gitfleet/', cluster: 'member1', log: silentLogger() },
  );
  return { a, b, repo, hub, reads, where };
}

test('a refresh that moved the branch in its render repository to an ordinary head reads no bindings; an unchanged one, an allowance and a tombstone do', async () => {
  const { a, b, repo, hub, reads, where } = await renderedTwoRepos();
  await where.refresh();
  assert.equal(where.location(), a, 'the record names render repository a');
  const readsOf = async () => {
    reads.length = 0;
    await where.refresh();
    return [...reads];
  };
  assert.deepEqual(await readsOf(), ['render', 'fleet'], 'nothing moved: the bindings branch is read');

  const push = (message: string, edit: (work: string) => void) => {
    commitChange(repo, message, edit);
    return hubPass(repo, { renderRepositories: hub }).then(rendered);
  };
  await push('value 2', (work) => writeFileSync(join(work, 'apps/shop.yaml'), configMap('2')));
  assert.deepEqual(await readsOf(), ['render'], 'a moved branch: the render repository alone');
  const head = (gitdir: string) =>
    execFileSync('git', ['--git-dir', gitdir, 'rev-parse', 'refs/heads/gitfleet/clusters/member1'], {
      encoding: 'utf8',
    }).trim();
  assert.equal(head(where.gitdir), head(a), 'the new head is in the mirror');
  assert.deepEqual(await readsOf(), ['render', 'fleet'], 'the next refresh finds it unchanged');

  await push('drop web\n\nGitfleet-Allow-Deletions: member1', (work) => rmSync(join(work, 'apps/shop.yaml')));
  assert.deepEqual(await readsOf(), ['render', 'fleet'], 'a head that allows deletions here');

  await push('member1 to b', (work) => writeFileSync(join(work, 'clusters/member1.yaml'), cluster('b')));
  const moving = await readsOf();
  assert.deepEqual(moving.slice(0, 2), ['render', 'fleet'], 'the tombstone sends it to the bindings branch');
  assert.equal(where.location(), b, 'and it follows the branch to b');
});

test("the first moved branch after the agent followed the record to its render repository reads no bindings: following read them (a doorbell's agent makes no refresh in between)", async () => {
  const { repo, hub, reads, where } = await renderedTwoRepos();
  await where.refresh();
  assert.deepEqual(
    reads,
    ['fleet', 'render'],
    'the record (the fleet mirror keeps the bindings branch), then the branch where it names: no second read of the fleet repository',
  );
  commitChange(repo, 'value 2', (work) => writeFileSync(join(work, 'apps/shop.yaml'), configMap('2')));
  rendered(await hubPass(repo, { renderRepositories: hub }));
  reads.length = 0;
  await where.refresh();
  assert.deepEqual(reads, ['render'], 'the render repository alone');
});
