import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assignStatusRepository } from '../../../src/core/model/assign-status-repository.js';
import { branchFiles, commitChange, exampleFleetRepo, hubPass, removeFleetRepos } from './hub-fixture.js';

after(removeFleetRepos);

const repos = [
  { name: 'status-a', url: 'https://git.example.com/status-a.git' },
  { name: 'status-b', url: '/srv/git/status-b.git' },
];
const clusters = ['aws-eu-prod', 'aws-us-prod', 'gcp-eu-prod', 'gcp-eu-staging', 'onprem-gpu'];
const path = '.gitfleet/status-repository';

function listRepositories(work: string): void {
  const file = join(work, 'fleet.yaml');
  const lines = repos.map((r) => `    - name: ${r.name}\n      url: ${r.url}\n`).join('');
  writeFileSync(file, `${readFileSync(file, 'utf8')}  statusRepositories:\n${lines}`);
}

function pinToB(work: string): void {
  const file = join(work, 'clusters/onprem-gpu.yaml');
  const text = readFileSync(file, 'utf8').replace(
    /^ {2}labels:\n/m,
    '  labels:\n    gitfleet.io/status-repository: status-b\n',
  );
  assert.match(text, /status-repository: status-b/);
  writeFileSync(file, text);
}

test('without status repositories no cluster branch holds .gitfleet/status-repository', async () => {
  const repo = exampleFleetRepo({ bare: true });
  await hubPass(repo);
  for (const cluster of clusters)
    assert.equal(branchFiles(repo, `gitfleet/clusters/${cluster}`).has(path), false);
});

test('the hub writes each cluster its assigned status repository URL: by label, else by hash', async () => {
  const repo = exampleFleetRepo({ bare: true });
  await hubPass(repo);
  commitChange(repo, 'status repositories', (work) => {
    listRepositories(work);
    pinToB(work);
  });
  await hubPass(repo);
  for (const cluster of clusters) {
    const got = branchFiles(repo, `gitfleet/clusters/${cluster}`).get(path);
    const labels = cluster === 'onprem-gpu' ? { 'gitfleet.io/status-repository': 'status-b' } : {};
    const want = assignStatusRepository({ name: cluster, labels }, repos);
    assert.equal(want.type, 'repository');
    assert.equal(got, `${want.type === 'repository' ? want.repository.url : ''}\n`, cluster);
  }
  assert.equal(branchFiles(repo, 'gitfleet/clusters/onprem-gpu').get(path), '/srv/git/status-b.git\n');
});

test('a cluster moved back to the fleet repository gets an empty file, which means the fleet repository', async () => {
  const repo = exampleFleetRepo({ bare: true });
  commitChange(repo, 'status repositories', listRepositories);
  await hubPass(repo);
  assert.ok(branchFiles(repo, 'gitfleet/clusters/aws-eu-prod').get(path)?.length);
  commitChange(repo, 'back to the fleet repository', (work) => {
    const file = join(work, 'fleet.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/ {2}statusRepositories:[\s\S]*$/, ''));
  });
  await hubPass(repo);
  for (const cluster of clusters)
    assert.equal(branchFiles(repo, `gitfleet/clusters/${cluster}`).get(path), '', cluster);
});
