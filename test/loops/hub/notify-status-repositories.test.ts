// Events from status repositories (docs/git-budget.md#status-repositories): a cluster whose
// status lives in a status repository of its own has its status branch read there by the
// notifier, through the hub's StatusRepositories as a pass refreshed them, and its ApplyFailed
// reaches a real local receiver; the stale status branch the fleet repository still holds for
// it is not read.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { localHubRepo } from '../../../src/adapters/remote/hub-repo.js';
import { StatusRepositories } from '../../../src/loops/hub/status-repositories.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { runGit } from '../../support/run-git.js';
import { webhookReceivers } from '../../support/webhook-receiver.js';
import { eventually } from '../../support/eventually.js';
import {
  bindingsCommit,
  hmacKey,
  member1StatusCommit,
  notifyRepo,
  secretsFor,
  testWorker,
  upToDate,
} from './notify-fixture.js';

const receivers = webhookReceivers(hmacKey);
after(async () => {
  await receivers.closeAll();
  removeTempDirs();
});

/** Adds a status commit of member1 failing on the objects named; returns it. */
function statusCommit(repo: { dir: string }, failures: string[]): string {
  return member1StatusCommit(repo, {
    fullyApplied: failures.length === 0,
    objects: 3,
    failures: failures.map((object) => `shop/ConfigMap/${object}: 403 Forbidden: not allowed`),
  });
}

test('an ApplyFailed written to a status repository reaches the receiver; the fleet repository’s stale status branch is not read', async () => {
  const s = await receivers.start();
  const fleet = notifyRepo(['{events: [ApplyFailed], receivers: [hook]}']);
  bindingsCommit(fleet, []);
  // The status member1 left in the fleet repository before it moved to its status repository.
  statusCommit(fleet, []);
  const statusRepo = { dir: tempDir('status-repo') };
  runGit(['init', '-q', '--bare', statusRepo.dir]);
  statusCommit(statusRepo, []);
  const status = new StatusRepositories({
    open: (url) => localHubRepo(url),
    branchPrefix: () => 'gitfleet/',
    log: silentLogger(),
  });
  status.assign(new Map([['member1', statusRepo.dir]]), 'gitfleet/');
  await status.refresh();
  const { worker } = testWorker(fleet.dir, secretsFor(s.url), { statusRepositories: status });
  worker.passed(upToDate(fleet.source));
  await worker.idle();

  statusCommit(statusRepo, ['web']);
  statusCommit(fleet, ['stale']);
  await status.refresh();
  worker.passed(upToDate(fleet.source));
  await worker.idle();
  await eventually(() => worker.backlog() === 0 && s.received.length > 0, 'the failure delivered');
  await worker.stop();

  const bodies = s.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
  assert.deepEqual(
    bodies.map((b) => [b['event'], b['cluster'], b['object']]),
    [['ApplyFailed', 'member1', 'ConfigMap/shop/web']],
  );
});
