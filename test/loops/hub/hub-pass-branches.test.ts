import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
} from './hub-fixture.js';

after(removeFleetRepos);

for (const bare of [false, true]) {
  const kind = bare ? 'a bare repository' : 'a repository with a work tree';

  test(`the first pass over ${kind} writes every cluster branch exactly as gitfleet render renders it`, async () => {
    const repo = exampleFleetRepo({ bare });
    const result = rendered(await hubPass(repo));
    const expected = await renderedByCli(repo);
    assert.deepEqual(Object.keys(result.clusters), [...expected.keys()]);
    for (const [cluster, files] of expected) {
      assert.equal(result.clusters[cluster]?.type, 'updated', cluster);
      assert.deepEqual(branchFiles(repo, `gitfleet/clusters/${cluster}`), files, cluster);
    }
    git(repo, ['fsck', '--strict', '--no-dangling']);
  });
}

test('a render commit names the source commit and lists every object it added', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const source = git(repo, ['rev-parse', 'main']);
  await hubPass(repo);
  const message = git(repo, ['log', '-1', '--format=%B', 'gitfleet/clusters/onprem-gpu']);
  const [subject, blank, ...rest] = message.split('\n');
  assert.equal(subject, `render ${source.slice(0, 7)}: initial fleet`);
  assert.equal(blank, '');
  const files = git(repo, ['ls-tree', '-r', '--name-only', 'gitfleet/clusters/onprem-gpu']).split('\n');
  const body = rest.slice(0, files.length);
  assert.deepEqual(
    body,
    files.map((f) => `${f.replace(/\.yaml$/, '')}: added`),
  );
  const trailers = git(repo, [
    'log',
    '-1',
    '--format=%(trailers:unfold,only)',
    'gitfleet/clusters/onprem-gpu',
  ]);
  assert.deepEqual(trailers.split('\n').filter(Boolean), [
    `Gitfleet-Source-Commit: ${source}`,
    'Gitfleet-Source-Ref: refs/heads/main',
  ]);
  assert.equal(
    git(repo, ['log', '--format=%an <%ae>', '-1', 'gitfleet/bindings']),
    'gitfleet <hub@gitfleet.invalid>',
  );
});

test('the bindings branch holds one ResourceBinding record per binding, at the object path', async () => {
  const repo = exampleFleetRepo({ bare: true });
  const result = rendered(await hubPass(repo));
  const records = branchFiles(repo, 'gitfleet/bindings');
  assert.equal(result.bindings.type === 'updated' && result.bindings.records, records.size);
  const web = records.get('shop/Deployment.apps/web.yaml');
  assert.match(web ?? '', /^kind: ResourceBinding$/m);
  assert.match(web ?? '', /propagationpolicy.karmada.io\/name: web/);
  assert.match(
    records.get('_cluster/CustomResourceDefinition.apiextensions.k8s.io/widgets.example.com.yaml') ?? '',
    /^kind: ClusterResourceBinding$/m,
  );
  const source = git(repo, ['rev-parse', 'main']);
  assert.match(
    git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']),
    new RegExp(`Gitfleet-Source-Commit: ${source}`),
  );
});

test('a second pass over the same source commit writes nothing: no ref moves, no object is added', async () => {
  const repo = exampleFleetRepo({ bare: false });
  await hubPass(repo);
  const refs = hubRefs(repo);
  const objects = allObjects(repo);
  const again = await hubPass(repo);
  assert.equal(again.type, 'upToDate');
  const forced = rendered(await hubPass(repo, { force: true }));
  assert.ok(Object.values(forced.clusters).every((c) => c.type === 'unchanged'));
  assert.equal(forced.bindings.type, 'unchanged');
  assert.equal(forced.written.objects, 0);
  assert.deepEqual(hubRefs(repo), refs);
  assert.deepEqual(allObjects(repo), objects);
});

test('changing one template changes exactly that file, on the clusters it is placed on', async () => {
  const repo = exampleFleetRepo({ bare: true });
  await hubPass(repo);
  const before = hubRefs(repo);
  commitChange(repo, 'api uses 1.28', (work) => {
    const file = join(work, 'apps/shop/api.yaml');
    const text = readFileSync(file, 'utf8');
    const bumped = text.replace(/image: (\S+):(\S+)/, 'image: $1:9.9.9');
    assert.notEqual(bumped, text, 'the example api has an image to bump');
    writeFileSync(file, bumped);
  });
  const result = rendered(await hubPass(repo));
  const after = hubRefs(repo);
  const placed = ['aws-eu-prod', 'aws-us-prod', 'gcp-eu-prod', 'gcp-eu-staging'];
  for (const cluster of ['aws-eu-prod', 'aws-us-prod', 'gcp-eu-prod', 'gcp-eu-staging', 'onprem-gpu']) {
    const ref = `refs/heads/gitfleet/clusters/${cluster}`;
    if (!placed.includes(cluster)) {
      assert.equal(after.get(ref), before.get(ref), `${cluster} does not run the api: its branch stays`);
      assert.equal(result.clusters[cluster]?.type, 'unchanged');
      continue;
    }
    assert.equal(git(repo, ['rev-parse', `${ref}^`]), before.get(ref), `${cluster}: one commit on top`);
    assert.equal(
      git(repo, ['diff', '--name-status', before.get(ref)!, ref]),
      'M\tshop/Deployment.apps/api.yaml',
    );
    assert.match(git(repo, ['log', '-1', '--format=%B', ref]), /^shop\/Deployment.apps\/api: changed$/m);
  }
  git(repo, ['fsck', '--strict', '--no-dangling']);
});

test('a new source commit that changes no output moves only the bindings branch, with an unchanged tree', async () => {
  const repo = exampleFleetRepo({ bare: false });
  await hubPass(repo);
  const before = hubRefs(repo);
  const source = commitChange(repo, 'docs only', (work) =>
    writeFileSync(join(work, 'NOTES.md'), 'not YAML\n'),
  );
  const result = rendered(await hubPass(repo));
  const after = hubRefs(repo);
  for (const [ref, oid] of before) {
    if (ref.endsWith('/bindings')) continue;
    assert.equal(after.get(ref), oid, `${ref} stays`);
  }
  assert.equal(result.bindings.type, 'updated');
  assert.equal(
    git(repo, ['rev-parse', 'gitfleet/bindings^{tree}']),
    git(repo, ['rev-parse', 'gitfleet/bindings~1^{tree}']),
  );
  const message = git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']).trimEnd();
  // The trailers also name the commit each cluster branch is at: what the hub last wrote there.
  const clusters = [...after]
    .filter(([ref]) => ref.includes('/clusters/'))
    .map(
      ([ref, oid]) =>
        `\nGitfleet-Cluster-Commit: ${ref.slice('refs/heads/gitfleet/clusters/'.length)}=${oid}`,
    )
    .join('');
  assert.equal(
    message,
    `render ${source.slice(0, 7)}: docs only\n\nGitfleet-Source-Commit: ${source}\nGitfleet-Source-Ref: refs/heads/main${clusters}`,
  );
  assert.equal((await hubPass(repo)).type, 'upToDate');
});

test('a registered cluster with nothing placed on it gets a branch with an empty tree, once', async () => {
  const repo = fleetRepoWith(
    {
      'clusters.yaml':
        'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: idle\nspec: {}\n',
    },
    { bare: false },
  );
  const result = rendered(await hubPass(repo));
  assert.equal(result.clusters.idle?.type, 'updated');
  assert.equal(
    git(repo, ['rev-parse', 'gitfleet/clusters/idle^{tree}']),
    '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  );
  assert.match(
    git(repo, ['log', '-1', '--format=%B', 'gitfleet/clusters/idle']),
    /^render [0-9a-f]{7}: initial fleet\n\nGitfleet-Source-Commit: /,
  );
  commitChange(repo, 'again', () => undefined);
  const again = rendered(await hubPass(repo));
  assert.equal(again.clusters.idle?.type, 'unchanged');
  git(repo, ['fsck', '--strict', '--no-dangling']);
});
