// gitfleet log <object> starts with why the object is where it is now, per cluster: the
// explanation `status --template` gives (one function computes both), on branches written by
// real hub passes and a status branch written as an agent writes it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { fleetRepoWith, git, hubPass, rendered, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { commitReport, head, recordsOf, shopFleet } from './status-fixture.js';
import { runCli } from './run-cli.js';

after(removeFleetRepos);

const ready = { conditions: [{ type: 'Ready', status: 'True' as const }], kubernetesVersion: 'v1.31.0' };

interface Explained {
  reason: string;
  clusters: { cluster: string; placed: boolean; reason: string; message: string }[];
}

test('log of an object prints its explanation per cluster above its history, the one status gives', async () => {
  const repo = fleetRepoWith(shopFleet('web:1'), { bare: false });
  rendered(await hubPass(repo));
  const m1 = head(repo, 'gitfleet/clusters/m1');
  await commitReport(
    repo,
    { cluster: 'm1', appliedCommit: m1, clusterStatus: ready, objects: recordsOf(repo, m1) },
    1_700_000_300,
  );
  rendered(await hubPass(repo));

  const text = await runCli(['log', '--repo', repo.path, 'deploy/shop/web']);
  assert.equal(text.code, 0, text.stderr);
  const lines = text.stdout.split('\n');
  assert.match(lines[0]!, /^now: Deployment\/shop\/web {2}\w+/);
  assert.match(lines[1]!, /^ {2}CLUSTER +PLACED +REASON +MESSAGE$/);
  assert.match(lines[2]!, /^ {2}m1 +yes +Healthy\b/);
  assert.match(lines[3]!, /^ {2}m2 +yes +NotReported\b/);
  assert.equal(
    lines[4],
    '  (1 more cluster the placement did not choose)',
    'm3 is outside its clusterAffinity',
  );
  assert.equal(lines[5], '');
  assert.match(lines[6]!, / m1 {2}[0-9a-f]{7} {2}added +shop\/Deployment\.apps\/web\.yaml/);

  const log = JSON.parse(
    (await runCli(['log', '--repo', repo.path, '-o', 'json', 'Deployment/shop/web'])).stdout,
  ) as {
    explanation: Explained;
  };
  const status = JSON.parse(
    (await runCli(['status', '--repo', repo.path, '--template', 'Deployment/shop/web', '-o', 'json'])).stdout,
  ) as { templates: ({ explanation: Explained['clusters'] } & Explained)[] };
  const [web] = status.templates;
  assert.equal(log.explanation.reason, web!.reason);
  assert.deepEqual(
    log.explanation.clusters.filter((c) => web!.explanation.some((s) => s.cluster === c.cluster)),
    web!.explanation,
    'the same words as status --template',
  );
});

test('without a bindings branch there is no explanation, and the history is printed as before', async () => {
  const repo = fleetRepoWith(shopFleet('web:1'), { bare: false });
  rendered(await hubPass(repo));
  git(repo, ['update-ref', '-d', 'refs/heads/gitfleet/bindings']);
  const text = await runCli(['log', '--repo', repo.path, 'deploy/shop/web']);
  assert.equal(text.code, 0, text.stderr);
  assert.doesNotMatch(text.stdout, /^now:/);
  assert.match(text.stdout.split('\n')[0]!, / m1 {2}[0-9a-f]{7} {2}added /);
});
