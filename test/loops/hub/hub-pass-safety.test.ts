import { RemoteError } from '../../../src/adapters/remote/remote-error.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitWriteError } from '../../../src/adapters/git/git-write-error.js';
import { localHubRepo, type HubRepo } from '../../../src/adapters/remote/hub-repo.js';
import {
  allObjects,
  branchFiles,
  commitChange,
  exampleFleetRepo,
  fleetRepoWith,
  git,
  hubPass,
  hubRefs,
  removeFleetRepos,
  renderedByCli,
  rendered,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

const removeShop = (work: string): void => rmSync(join(work, 'apps/shop'), { recursive: true });

test('a source commit that does not load writes nothing and reports the file and line', async () => {
  const repo = exampleFleetRepo({ bare: true });
  await hubPass(repo);
  const refs = hubRefs(repo);
  commitChange(repo, 'broken', (work) =>
    writeFileSync(join(work, 'apps/shop/broken.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: [oops\n'),
  );
  const objects = allObjects(repo);
  const result = await hubPass(repo);
  assert.equal(result.type, 'loadFailed');
  assert.ok(result.type === 'loadFailed' && result.errors.length > 0);
  const [error] = result.type === 'loadFailed' ? result.errors : [];
  assert.equal(error?.file, 'apps/shop/broken.yaml');
  assert.equal(typeof error?.line, 'number');
  assert.deepEqual(hubRefs(repo), refs);
  assert.deepEqual(allObjects(repo), objects);
});

test('the guard refuses deleting most of a cluster: the branch keeps its commit and a diagnostic says why', async () => {
  const repo = exampleFleetRepo({ bare: false });
  await hubPass(repo);
  const before = hubRefs(repo);
  commitChange(repo, 'retire the shop', removeShop);
  const result = rendered(await hubPass(repo));
  for (const cluster of ['aws-eu-prod', 'aws-us-prod', 'gcp-eu-prod']) {
    const outcome = result.clusters[cluster];
    assert.equal(outcome?.type, 'refused', cluster);
    assert.equal(
      hubRefs(repo).get(`refs/heads/gitfleet/clusters/${cluster}`),
      before.get(`refs/heads/gitfleet/clusters/${cluster}`),
    );
    const diagnostic = result.diagnostics.find((d) => d.code === 'DeletionRefused' && d.cluster === cluster);
    assert.match(diagnostic?.message ?? '', /deletes 11 of 15 objects/);
    assert.match(diagnostic?.message ?? '', /Gitfleet-Allow-Deletions/);
  }
  // Small clusters are under the guard's minimum, so their deletions go through.
  assert.equal(result.clusters['gcp-eu-staging']?.type, 'updated');
  assert.equal(result.clusters['onprem-gpu']?.type, 'updated');
});

test('the Gitfleet-Allow-Deletions trailer lets the named clusters, or all of them, through', async () => {
  const repo = exampleFleetRepo({ bare: true });
  await hubPass(repo);
  commitChange(repo, 'retire the shop', removeShop);
  await hubPass(repo);
  commitChange(repo, 'allow two\n\nGitfleet-Allow-Deletions: aws-eu-prod, aws-us-prod', () => undefined);
  const two = rendered(await hubPass(repo));
  assert.equal(two.clusters['aws-eu-prod']?.type, 'updated');
  assert.equal(two.clusters['aws-us-prod']?.type, 'updated');
  assert.equal(two.clusters['gcp-eu-prod']?.type, 'refused');
  commitChange(repo, 'allow the rest\n\nGitfleet-Allow-Deletions: all', () => undefined);
  const all = rendered(await hubPass(repo));
  assert.equal(all.clusters['gcp-eu-prod']?.type, 'updated');
  const expected = await renderedByCli(repo);
  for (const [cluster, files] of expected) {
    assert.deepEqual(branchFiles(repo, `gitfleet/clusters/${cluster}`), files, cluster);
  }
  assert.match(
    git(repo, ['log', '-1', '--format=%B', 'gitfleet/clusters/aws-eu-prod']),
    /^shop\/Deployment.apps\/web: removed$/m,
  );
  // Passed on to the cluster commits that delete, for the agent's own guard; not to others.
  for (const cluster of ['aws-eu-prod', 'gcp-eu-prod']) {
    const trailers = git(repo, [
      'log',
      '-1',
      '--format=%(trailers:key=Gitfleet-Allow-Deletions,valueonly)',
      `gitfleet/clusters/${cluster}`,
    ]);
    assert.equal(trailers.trim(), cluster);
  }
  const bindings = git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']);
  assert.doesNotMatch(bindings, /Gitfleet-Allow-Deletions/);
});

test('a cluster removed from the repo gets one tombstone commit, not a deleted branch', async () => {
  const repo = exampleFleetRepo({ bare: false });
  await hubPass(repo);
  const ref = 'refs/heads/gitfleet/clusters/onprem-gpu';
  const last = hubRefs(repo).get(ref)!;
  const source = commitChange(repo, 'decommission onprem-gpu', (work) =>
    rmSync(join(work, 'clusters/onprem-gpu.yaml')),
  );
  const result = rendered(await hubPass(repo));
  assert.equal(result.clusters['onprem-gpu']?.type, 'tombstoned');
  assert.equal(git(repo, ['rev-parse', `${ref}^`]), last);
  assert.deepEqual(git(repo, ['ls-tree', '-r', '--name-only', ref]).split('\n'), [
    '.gitfleet/tombstone.yaml',
  ]);
  assert.match(git(repo, ['show', `${ref}:.gitfleet/tombstone.yaml`]), /^kind: Tombstone$/m);
  const message = git(repo, ['log', '-1', '--format=%B', ref]);
  assert.match(message, new RegExp(`^tombstone: cluster onprem-gpu removed in ${source.slice(0, 7)}\n`));
  assert.match(message, new RegExp(`Gitfleet-Source-Commit: ${source}`));
  const tombstone = hubRefs(repo).get(ref);
  commitChange(repo, 'later change', (work) => writeFileSync(join(work, 'NOTES.md'), 'x\n'));
  const later = rendered(await hubPass(repo));
  assert.equal(later.clusters['onprem-gpu']?.type, 'retired');
  assert.equal(hubRefs(repo).get(ref), tombstone, 'no second tombstone');
  git(repo, ['fsck', '--strict', '--no-dangling']);
});

test('registering a tombstoned cluster again replaces the tombstone with its render', async () => {
  const repo = exampleFleetRepo({ bare: true });
  await hubPass(repo);
  commitChange(repo, 'remove', (work) => rmSync(join(work, 'clusters/onprem-gpu.yaml')));
  await hubPass(repo);
  commitChange(repo, 'restore', (work) =>
    git({ ...repo, path: work, gitdir: join(work, '.git') }, [
      'checkout',
      'HEAD~1',
      '--',
      'clusters/onprem-gpu.yaml',
    ]),
  );
  const result = rendered(await hubPass(repo));
  assert.equal(result.clusters['onprem-gpu']?.type, 'updated');
  assert.deepEqual(
    branchFiles(repo, 'gitfleet/clusters/onprem-gpu'),
    (await renderedByCli(repo)).get('onprem-gpu'),
  );
});

/** A repository rendered once, then changed (the api's image, on four clusters), ready for a second pass. */
async function changedRepo(): Promise<{ repo: FleetRepo; before: Map<string, string> }> {
  const repo = exampleFleetRepo({ bare: false });
  await hubPass(repo);
  const before = hubRefs(repo);
  commitChange(repo, 'api 9.9.9', (work) => {
    const file = join(work, 'apps/shop/api.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/image: (\S+):(\S+)/, 'image: $1:9.9.9'));
  });
  return { repo, before };
}

test('a pass killed after writing its objects leaves every branch as it was, and the next pass completes', async () => {
  const { repo, before } = await changedRepo();
  const killed = hubPass(repo, {
    hooks: {
      afterObjectsWritten: () => {
        throw new Error('killed');
      },
    },
  });
  await assert.rejects(killed, /killed/);
  assert.deepEqual(hubRefs(repo), before);
  git(repo, ['fsck', '--strict']);
  const next = rendered(await hubPass(repo));
  assert.equal(next.attempts, 1);
  const expected = await renderedByCli(repo);
  for (const [cluster, files] of expected) {
    assert.deepEqual(branchFiles(repo, `gitfleet/clusters/${cluster}`), files, cluster);
  }
});

test('a competing writer that moves a branch first makes the pass read again and build on its commit', async () => {
  const { repo } = await changedRepo();
  const ref = 'refs/heads/gitfleet/clusters/aws-eu-prod';
  let competed = false;
  const result = rendered(
    await hubPass(repo, {
      hooks: {
        afterObjectsWritten: () => {
          if (competed) return;
          competed = true;
          const commit = git(repo, ['commit-tree', `${ref}^{tree}`, '-p', ref, '-m', 'hand edit']);
          git(repo, ['update-ref', ref, commit]);
        },
      },
    }),
  );
  assert.equal(result.attempts, 2);
  assert.equal(result.clusters['aws-eu-prod']?.type, 'updated');
  assert.equal(git(repo, ['log', '-1', '--format=%s', `${ref}^`]), 'hand edit');
  git(repo, ['fsck', '--strict']);
});

test('a competing hub pass that wins the race leaves the loser nothing to do', async () => {
  const { repo } = await changedRepo();
  let competed = false;
  const result = await hubPass(repo, {
    hooks: {
      afterObjectsWritten: async () => {
        if (competed) return;
        competed = true;
        rendered(await hubPass(repo));
      },
    },
  });
  assert.equal(result.type, 'upToDate');
  assert.equal(result.attempts, 2);
});

test('a writer that keeps winning exhausts the attempts, and the conflict is reported', async () => {
  const { repo } = await changedRepo();
  const ref = 'refs/heads/gitfleet/clusters/aws-eu-prod';
  const pass = hubPass(repo, {
    maxAttempts: 2,
    hooks: {
      afterObjectsWritten: () => {
        const commit = git(repo, ['commit-tree', `${ref}^{tree}`, '-p', ref, '-m', 'hand edit']);
        git(repo, ['update-ref', ref, commit]);
      },
    },
  });
  await assert.rejects(pass, (error) => error instanceof GitWriteError && error.code === 'RefConflict');
});

test('a publish that loses a race (a remote that moved first) makes the pass refresh and run again', async () => {
  const { repo } = await changedRepo();
  const local = localHubRepo(repo.path);
  let refreshes = 0;
  let publishes = 0;
  const remoteLike: HubRepo = {
    gitdir: local.gitdir,
    description: 'a remote',
    refresh: () => {
      refreshes++;
      return Promise.resolve();
    },
    publish: () => {
      publishes++;
      if (publishes === 1) throw new RemoteError('PushRejected', 'refs/heads/gitfleet/bindings: rejected');
      return Promise.resolve();
    },
  };
  const result = await hubPass(repo, { repo: remoteLike });
  assert.equal(result.attempts, 2);
  assert.equal(refreshes, 2);
});

/** Two clusters, each with its team's twelve ConfigMaps, placed by the team's policy. */
function twoTeamFleet(): FleetRepo {
  const files: Record<string, string> = {};
  for (const team of ['a', 'b']) {
    files[`clusters/${team}.yaml`] =
      `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: cluster-${team}\n`;
    files[`apps/team-${team}/namespace.yaml`] =
      `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-${team}\n`;
    files[`apps/team-${team}/policy.yaml`] = [
      'apiVersion: policy.karmada.io/v1alpha1',
      'kind: PropagationPolicy',
      'metadata:',
      `  name: team-${team}`,
      `  namespace: team-${team}`,
      'spec:',
      '  resourceSelectors:',
      '    - apiVersion: v1',
      '      kind: ConfigMap',
      '  placement:',
      '    clusterAffinity:',
      `      clusterNames: [cluster-${team}]`,
      '',
    ].join('\n');
    for (let n = 1; n <= 12; n++) {
      files[`apps/team-${team}/config-${n}.yaml`] =
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-${n}\n  namespace: team-${team}\ndata:\n  n: "${n}"\n`;
    }
  }
  return fleetRepoWith(files, { bare: false });
}

test('a refused deletion leaves the bindings records of the refused cluster, and its branch, as they were', async () => {
  const repo = twoTeamFleet();
  rendered(await hubPass(repo));
  const ref = 'refs/heads/gitfleet/clusters/cluster-b';
  const head = hubRefs(repo).get(ref);
  const onCluster = [...branchFiles(repo, ref).keys()];
  const records = branchFiles(repo, 'gitfleet/bindings');
  // Team b's policy and ConfigMaps leave the repo: a deletion of all it runs on cluster-b,
  // where only the Namespaces every cluster gets would stay.
  const source = commitChange(repo, 'retire team b', (work) => {
    rmSync(join(work, 'apps/team-b/policy.yaml'));
    for (let n = 1; n <= 12; n++) rmSync(join(work, `apps/team-b/config-${n}.yaml`));
  });
  const result = rendered(await hubPass(repo));
  assert.equal(result.clusters['cluster-b']?.type, 'refused');
  assert.equal(result.clusters['cluster-a']?.type, 'unchanged');
  assert.equal(hubRefs(repo).get(ref), head);
  const after = branchFiles(repo, 'gitfleet/bindings');
  const kept = onCluster.filter((path) => records.has(path));
  assert.ok(kept.length >= 12, `records of the cluster's templates: ${kept.join(', ')}`);
  for (const path of onCluster) assert.equal(after.get(path), records.get(path), path);
  // The rest of the bindings branch follows the render, and the source commit is recorded.
  for (const [path, record] of records)
    if (path.startsWith('team-a/')) assert.equal(after.get(path), record, path);
  assert.match(git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']), new RegExp(source));
  // Once allowed, the deletion goes through on the branch and in the records together.
  commitChange(repo, 'allow it\n\nGitfleet-Allow-Deletions: cluster-b', () => undefined);
  assert.equal(rendered(await hubPass(repo)).clusters['cluster-b']?.type, 'updated');
  const allowed = branchFiles(repo, 'gitfleet/bindings');
  assert.deepEqual(
    [...allowed.keys()].filter((path) => path.startsWith('team-b/')),
    [],
  );
});
