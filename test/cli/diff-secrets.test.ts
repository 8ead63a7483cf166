import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { cleanup, git, initRepo, writeFiles } from '../adapters/source/git-fixture.js';
import { runCli } from './run-cli.js';

after(cleanup);

const clusters =
  'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: c1}\nspec: {syncMode: Pull}\n';
const policy = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: all}
spec:
  resourceSelectors: [{apiVersion: v1, kind: Secret}]
  placement: {clusterAffinity: {clusterNames: [c1]}}
`;
const secret = (token: string, password: string) =>
  `apiVersion: v1\nkind: Secret\nmetadata: {name: db, namespace: default}\ndata: {token: ${token}}\nstringData: {password: ${password}}\n`;

for (const withHub of [false, true]) {
  test(`diff shows that Secret keys changed and never their values, in text, markdown and json${withHub ? ', with the hub state (the base side read from the cluster branch)' : ''}.`, async () => {
    const repo = initRepo();
    writeFiles(repo, {
      'clusters.yaml': clusters,
      'policy.yaml': policy,
      'db.yaml': secret('b2xkLXRva2Vu', 'old-hunter2'),
    });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    const base = git(repo, 'rev-parse', 'HEAD');
    if (withHub) assert.equal((await runCli(['hub', '--repo', repo, '--once'])).code, 0);
    writeFiles(repo, { 'db.yaml': secret('bmV3LXRva2Vu', 'new-hunter3') });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'rotate');
    const head = git(repo, 'rev-parse', 'HEAD');
    for (const format of ['text', 'markdown', 'json']) {
      const run = await runCli(['diff', repo, base, head, '--format', format]);
      assert.equal(run.code, 6, run.stderr);
      const output = run.stdout + run.stderr;
      for (const value of [
        'b2xkLXRva2Vu',
        'bmV3LXRva2Vu',
        'old-hunter2',
        'new-hunter3',
        'old-tok',
        'new-tok',
      ]) {
        assert.ok(!output.includes(value), `${format} prints ${value}`);
      }
      assert.match(output, /token: \\?"<redacted, changed>/);
      assert.match(output, /password: \\?"<redacted, changed>/);
      if (withHub) assert.match(output, /base side: the cluster branches as the hub last wrote them/);
    }
  });
}
