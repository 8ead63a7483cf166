// `gitfleet cluster leave` against a real fleet repository: the removal of the registration (and
// with it the agent's key) is one commit on a review branch; a file holding other documents
// keeps them; an unknown cluster is refused.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './run-cli.js';
import { author, fleetClone } from './cluster-fixture.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeTempDirs);

test('cluster leave removes the registration cluster join wrote, and revokes its key, on a review branch.', async () => {
  const clone = await fleetClone();
  const joined = await runCli([
    'cluster',
    'join',
    'member2',
    '--repo',
    clone.dir,
    '--hub-keys',
    clone.hubKeys,
    '-o',
    join(tempDir('o'), 'o'),
    ...author,
  ]);
  assert.equal(joined.code, 0, joined.stderr);
  clone.git('merge', '-q', '--ff-only', 'cluster-join/member2');
  const key = /Gitfleet-Cluster-Key: (\S+)/.exec(clone.git('log', '-1', '--format=%B', 'main'))![1]!;
  const main = clone.git('rev-parse', 'main');
  const run = await runCli(['cluster', 'leave', 'member2', '--repo', clone.dir, ...author]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(clone.git('rev-parse', 'main'), main);
  assert.equal(clone.git('rev-parse', 'cluster-leave/member2^'), main);
  assert.equal(
    clone.git('diff', '--name-status', 'main', 'cluster-leave/member2'),
    'D\tclusters/member2.yaml',
  );
  const message = clone.git('log', '-1', '--format=%B', 'cluster-leave/member2');
  assert.match(message, /Gitfleet-Cluster-Leave: member2/);
  assert.match(message, new RegExp(`Gitfleet-Cluster-Key-Revoked: ${key.replace(/[+/]/g, '\\$&')}`));
  assert.match(run.stdout, new RegExp(`agent signing key ${key.replace(/[+/]/g, '\\$&')} revoked`));
  assert.match(run.stdout, /the hub writes the tombstone on gitfleet\/clusters\/member2/);
  const validate = await runCli(['validate', clone.dir, '--ref', 'cluster-leave/member2']);
  assert.equal(validate.code, 0, validate.stderr);
});

test('cluster leave cuts one Cluster out of a file of several, keeping the others byte for byte.', async () => {
  const two =
    '# the EU clusters\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: eu-1\n---\n# second\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: eu-2\n  labels: {env: prod}\n';
  for (const [leaving, kept] of [
    [
      'eu-1',
      '# second\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: eu-2\n  labels: {env: prod}',
    ],
    [
      'eu-2',
      '# the EU clusters\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: eu-1',
    ],
  ] as const) {
    const clone = await fleetClone({ 'clusters/eu.yaml': two });
    const run = await runCli(['cluster', 'leave', leaving, '--repo', clone.dir, ...author]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(clone.git('show', `cluster-leave/${leaving}:clusters/eu.yaml`), kept);
    assert.match(run.stdout, /joined without gitfleet cluster join/);
  }
});

test('cluster leave refuses a cluster that is not registered, naming the ones that are.', async () => {
  const clone = await fleetClone();
  const run = await runCli(['cluster', 'leave', 'member9', '--repo', clone.dir, ...author]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /cluster member9: not registered .*\(registered: member1\)/);
  assert.equal(clone.git('branch', '--format=%(refname:short)'), 'main');
});

test('cluster leave refuses a registration edited in the work tree, and proposes nothing.', async () => {
  const clone = await fleetClone();
  writeFileSync(join(clone.dir, 'clusters/member1.yaml'), '# my edit\n', { flag: 'a' });
  const run = await runCli(['cluster', 'leave', 'member1', '--repo', clone.dir, ...author]);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /clusters\/member1.yaml: edited in the work tree of .*; commit, move or remove it first/,
  );
  assert.equal(clone.git('branch', '--format=%(refname:short)'), 'main');
  assert.match(clone.git('status', '--porcelain'), /^ ?M clusters\/member1.yaml$/);
});
