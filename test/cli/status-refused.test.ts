// gitfleet status names a refused mass deletion (issue #27 point 17): the hub's, recorded on the
// bindings head, and an agent's, reported in its status branch's conditions. Real hub passes on
// a real repository; the agent's report is written as the agent writes it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './run-cli.js';
import { commitReport, head } from './status-fixture.js';
import { commitChange, exampleFleetRepo, removeFleetRepos } from '../loops/hub/hub-fixture.js';

after(removeFleetRepos);

test('status names each cluster update the hub refused, and how to allow it, until it is allowed', async () => {
  const repo = exampleFleetRepo({ bare: false });
  await runCli(['hub', '--repo', repo.path, '--once']);
  commitChange(repo, 'drop the shop', (work) => rmSync(join(work, 'apps/shop'), { recursive: true }));
  assert.equal((await runCli(['hub', '--repo', repo.path, '--once'])).code, 3);

  const text = await runCli(['status', '--repo', repo.path]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^Refused deletions \(still pending\)$/m);
  assert.match(
    text.stdout,
    /^ {2}aws-eu-prod +hub +the render deletes 11 of 15 objects.*'Gitfleet-Allow-Deletions: aws-eu-prod'/m,
  );
  const json = JSON.parse((await runCli(['status', '--repo', repo.path, '--output', 'json'])).stdout) as {
    refusedDeletions?: { cluster: string; by: string; message: string }[];
  };
  assert.deepEqual(
    json.refusedDeletions?.map((r) => `${r.cluster} ${r.by}`),
    ['aws-eu-prod hub', 'aws-us-prod hub', 'gcp-eu-prod hub'],
  );
  const wide = await runCli(['status', '--repo', repo.path, '--wide', '--all']);
  assert.match(wide.stdout, /^ {2}gcp-eu-prod +hub +the render deletes/m);

  commitChange(repo, 'allow it\n\nGitfleet-Allow-Deletions: all', () => undefined);
  assert.equal((await runCli(['hub', '--repo', repo.path, '--once'])).code, 0);
  const allowed = await runCli(['status', '--repo', repo.path, '--output', 'json']);
  assert.equal(
    (JSON.parse(allowed.stdout) as object & { refusedDeletions?: unknown }).refusedDeletions,
    undefined,
  );
  assert.doesNotMatch((await runCli(['status', '--repo', repo.path])).stdout, /Refused deletions/);
});

test("status names an agent's refused prune, from the Pruned condition of its report", async () => {
  const repo = exampleFleetRepo({ bare: false });
  await runCli(['hub', '--repo', repo.path, '--once']);
  const refusal =
    'onprem-gpu: the branch deletes 10 of 13 objects; refused: nothing was deleted. Allow it with --allow-deletions';
  await commitReport(
    repo,
    {
      cluster: 'onprem-gpu',
      appliedCommit: head(repo, 'gitfleet/clusters/onprem-gpu'),
      objects: [],
      conditions: [{ type: 'Pruned', status: 'False', reason: 'MassDeletionGuard', message: refusal }],
    },
    1_800_000_000,
  );
  const text = await runCli(['status', '--repo', repo.path]);
  assert.match(text.stdout, /^ {2}onprem-gpu +agent +onprem-gpu: the branch deletes 10 of 13 objects/m);
});
