// The hub's loop under a leadership (docs/production.md#leader-election), on a real fleet
// repository, with a scripted Leadership in place of the Lease election: the hub renders only
// once it leads, a pass whose leadership is overdue moves no ref, a lost lease stops the loop and
// the hub stands by again (not ready), and a clean stop releases the lease.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runHub } from '../../src/cli/commands/hub.js';
import { Readiness } from '../../src/loops/runtime/readiness.js';
import { commitChange, exampleFleetRepo, hubRefs, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { eventually } from '../support/eventually.js';
import { liveIo, scriptedLeadership } from './hub-test-io.js';

after(removeFleetRepos);

test('the hub renders only while it leads; an overdue leadership moves no ref; a lost lease sends it back to standby', async () => {
  const repo = exampleFleetRepo({ bare: true });
  const io = liveIo();
  const script = scriptedLeadership();
  const readiness = new Readiness();
  readiness.firstPassDone();
  const running = runHub(
    { repo: repo.path, sourceRef: 'main', once: false, intervalMs: 3_600_000, output: 'text' },
    io,
    { leadership: script.leadership, readiness },
  );
  await eventually(() => /hub: standing by until this replica holds the lease/.test(io.text()), 'standby');
  assert.equal(readiness.ready().ready, false);
  assert.equal(hubRefs(repo).size, 0, 'a standby renders nothing');

  script.grant();
  await eventually(() => /hub: rendered .*\(initial fleet\)/.test(io.text()), 'the first pass once leading');
  assert.equal(readiness.ready().ready, true);
  const before = hubRefs(repo);

  // The renewal is overdue (not yet reported lost): the pass in hand must not move the refs.
  script.overdue();
  commitChange(repo, 'api 9.9.9', (work) => {
    const file = join(work, 'apps/shop/api.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/image: (\S+):(\S+)/, 'image: $1:9.9.9'));
  });
  await eventually(
    () =>
      /hub: no longer leads \(its lease was lost or its renewal is overdue\): this pass moved no ref/.test(
        io.text(),
      ),
    'the pass refused',
  );
  assert.deepEqual(hubRefs(repo), before, 'no ref moved');

  script.lose();
  await eventually(() => script.calls.acquire === 2, 'standing by again');
  assert.equal(readiness.ready().ready, false);
  assert.match(readiness.ready().reason, /standing by/);

  io.interrupt();
  assert.equal(await running, 0);
  assert.equal(script.calls.release, 1, 'released on the way out');
  assert.match(io.text(), /hub: stopped$/);
});
