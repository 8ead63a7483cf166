import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cachedPackCount } from '../../../src/adapters/git/forget-removed-packs.js';
import { listPacks } from '../../../src/adapters/git/list-packs.js';
import { openObjectStore, readStoredObject } from '../../../src/adapters/git/object-store.js';
import { repackPacks, type RepackOptions } from '../../../src/adapters/git/repack-packs.js';
import {
  repoMaintenance,
  withRepoMaintenance,
  type MaintenanceSettings,
  roundRobinMaintenance,
} from '../../../src/loops/runtime/repo-maintenance.js';
import { git, makeRepo, removeRepos } from '../../adapters/git/git-repo-fixture.js';
import { pileOfPacks } from '../../adapters/git/pack-pile-fixture.js';
import { fakeClock } from './fake-clock.js';

after(removeRepos);

const settings: MaintenanceSettings = {
  maxPacks: 4,
  maxLooseObjects: 6700,
  minIntervalMs: 60_000,
  factor: 2,
};

function recordingLog() {
  const lines: string[] = [];
  return {
    lines,
    log: {
      info: (m: string) => lines.push(`info ${m}`),
      warn: (m: string) => lines.push(`warn ${m}`),
      error: (m: string) => lines.push(`error ${m}`),
    },
  };
}

test('A repack runs after a pass once there are more packs than the limit, and at most once per interval.', async () => {
  const repo = makeRepo({ bare: true });
  const clock = fakeClock();
  const { lines, log } = recordingLog();
  const calls: RepackOptions[] = [];
  const maintenance = repoMaintenance({
    gitdir: repo.gitdir,
    clock,
    log,
    packCache: {},
    settings,
    repack: (opts) => {
      calls.push(opts);
      return repackPacks({ ...opts, threads: 0, fsync: false });
    },
  });
  await pileOfPacks(repo.gitdir, 4);
  assert.deepEqual(await maintenance.afterPass(), { type: 'notDue' }, '4 packs: not more than the limit');
  await pileOfPacks(repo.gitdir, 1, 0, 4);
  const ran = await maintenance.afterPass();
  assert.equal(ran.type, 'ran');
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.now, clock.now());
  assert.equal((await listPacks(repo.gitdir)).length, 1);
  assert.match(lines.at(-1)!, /^info .*: folded 5 packs into pack-[0-9a-f]{40} \(\d+ objects, \d+ ms\)$/);

  await pileOfPacks(repo.gitdir, 5, 0, 10);
  clock.advance(59_999);
  assert.deepEqual(await maintenance.afterPass(), { type: 'notDue' }, 'within the interval');
  clock.advance(1);
  assert.equal((await maintenance.afterPass()).type, 'ran');
  assert.equal(calls.length, 2);
  git(repo, ['fsck', '--strict', '--no-dangling']);
});

test("The passes' pack cache forgets the packs a repack removed, so it holds only what is on disk.", async () => {
  const repo = makeRepo({ bare: true });
  const objects = await pileOfPacks(repo.gitdir, 6);
  const packCache = {};
  const store = openObjectStore(repo.gitdir, packCache);
  for (const o of objects) await readStoredObject(store, o.oid);
  assert.equal(cachedPackCount(packCache), 6);
  const maintenance = repoMaintenance({
    gitdir: repo.gitdir,
    clock: fakeClock(),
    log: recordingLog().log,
    packCache,
    settings,
  });
  assert.equal((await maintenance.afterPass()).type, 'ran');
  assert.equal(cachedPackCount(packCache), 0);
});

test('A failed repack is logged once as a warning and does not fail the pass it follows.', async () => {
  const repo = makeRepo({ bare: true });
  await pileOfPacks(repo.gitdir, 5);
  const { lines, log } = recordingLog();
  const maintenance = repoMaintenance({
    gitdir: repo.gitdir,
    clock: fakeClock(),
    log,
    packCache: {},
    settings,
    repack: () => Promise.reject(new Error('disk full')),
  });
  const pass = withRepoMaintenance(() => Promise.resolve('the pass result'), maintenance);
  assert.equal(await pass(), 'the pass result');
  assert.deepEqual(lines, [`warn ${repo.gitdir}: repack failed, the packs are left as they are: disk full`]);
  assert.equal((await listPacks(repo.gitdir)).length, 5);
});

test('Many repositories are checked in turn after each pass, each pass stopping once its budget is spent, the next going on from there.', async () => {
  let now = 0;
  const visits: string[] = [];
  // Members behind the small interface: "due" ones take 100 ms of the injected clock, the others none.
  const member = (name: string, due: boolean) => ({
    afterPass: async () => {
      visits.push(name);
      if (due) now += 100;
      return { type: 'notDue' as const };
    },
  });
  const members = [
    member('a', true),
    member('b', true),
    member('c', false),
    member('d', true),
    member('e', false),
  ];
  const maintenance = roundRobinMaintenance(() => members, { budgetMs: 150, elapsed: () => now });
  await maintenance.afterPass();
  assert.deepEqual(visits, ['a', 'b'], 'the second repack spent the budget: no third starts');
  await maintenance.afterPass();
  assert.deepEqual(visits.slice(2), ['c', 'd', 'e', 'a'], 'on from c; e costs nothing, a spends the budget');
  visits.length = 0;
  const idle = roundRobinMaintenance(() => [member('x', false), member('y', false)], {
    budgetMs: 150,
    elapsed: () => now,
  });
  await idle.afterPass();
  assert.deepEqual(visits, ['x', 'y'], 'each member at most once a pass');
  visits.length = 0;
  assert.deepEqual(await roundRobinMaintenance(() => [], { budgetMs: 150, elapsed: () => now }).afterPass(), {
    type: 'notDue',
  });
});
