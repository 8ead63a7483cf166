import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { cachedPackCount, forgetRemovedPacks } from '../../../src/adapters/git/forget-removed-packs.js';
import { listLooseObjects, listPacks } from '../../../src/adapters/git/list-packs.js';
import { openObjectStore, readStoredObject } from '../../../src/adapters/git/object-store.js';
import { readGitObject } from '../../../src/adapters/git/read-git-object.js';
import { repackPacks } from '../../../src/adapters/git/repack-packs.js';
import { git, makeRepo, removeRepos } from './git-repo-fixture.js';
import { addPileCommit, pileOfPacks } from './pack-pile-fixture.js';

after(removeRepos);

const now = 1_700_000_000_000;

/** `git count-objects -v` as numbers. */
function countObjects(gitdir: string): Record<string, number> {
  const out = git({ dir: gitdir, gitdir }, ['count-objects', '-v']);
  return Object.fromEntries(out.split('\n').map((l) => [l.split(':')[0]!, Number(l.split(': ')[1])]));
}

test('Many small packs and loose objects become one pack holding every object; git fsck is clean and nothing is left behind.', async () => {
  const repo = makeRepo({ bare: true });
  const objects = await pileOfPacks(repo.gitdir, 12, 3);
  assert.equal((await listPacks(repo.gitdir)).length, 12);
  assert.ok((await listLooseObjects(repo.gitdir)).length > 0);

  const result = await repackPacks({ gitdir: repo.gitdir, now, threads: 0 });
  assert.equal(result.type, 'repacked');
  if (result.type !== 'repacked') return;
  assert.equal(result.folded.length, 12);
  assert.equal(result.objects, new Set(objects.map((o) => o.oid)).size);
  assert.deepEqual(
    (await listPacks(repo.gitdir)).map((p) => p.name),
    [result.pack],
  );
  assert.deepEqual(await listLooseObjects(repo.gitdir), []);
  git(repo, ['fsck', '--strict', '--no-dangling']);
  const counts = countObjects(repo.gitdir);
  assert.equal(counts['garbage'], 0);
  assert.equal(counts['in-pack'], result.objects);
  for (const o of objects) {
    const read = await readGitObject({ gitdir: repo.gitdir }, o.oid);
    assert.deepEqual(Buffer.from(read.content), Buffer.from(o.content), o.oid);
  }
  assert.deepEqual(
    readdirSync(join(repo.gitdir, 'objects', 'pack')).filter((n) => !/^pack-/.test(n)),
    [],
  );

  assert.equal((await repackPacks({ gitdir: repo.gitdir, now, threads: 0 })).type, 'nothingToDo');
});

test('Packs with deltas (as a fetch brings them) are folded too: their objects are resolved and stored whole.', async () => {
  const repo = makeRepo({ bare: true });
  for (let n = 0; n < 6; n++) await addPileCommit(repo.gitdir, n, { padding: 4000 });
  // git packs everything with deltas between the similar manifests.
  git(repo, ['repack', '-a', '-d', '-f', '-q', '--window=50']);
  const [packed] = await listPacks(repo.gitdir);
  assert.match(
    git(repo, ['verify-pack', '-v', join(repo.gitdir, 'objects', 'pack', `${packed!.name}.idx`)]),
    /chain length = 1: \d+ objects?/,
  );
  const base = (await listPacks(repo.gitdir))[0]!.objects;
  await pileOfPacks(repo.gitdir, 2, 0, 6);
  // Two small packs beside one of `base` objects: all three fold only when asked with a factor that makes them.
  const result = await repackPacks({ gitdir: repo.gitdir, now, threads: 0, factor: 100 });
  assert.equal(result.type, 'repacked');
  assert.equal((await listPacks(repo.gitdir)).length, 1);
  git(repo, ['fsck', '--strict', '--no-dangling']);
  assert.ok(countObjects(repo.gitdir)['in-pack']! > base);
});

test('A reader that cached the old packs still reads every object after a repack; the maintenance then drops them from its cache.', async () => {
  const repo = makeRepo({ bare: true });
  const objects = await pileOfPacks(repo.gitdir, 5);
  const cache = {};
  const store = openObjectStore(repo.gitdir, cache);
  // Every pack's index is parsed and every pack loaded, through one listing.
  for (const o of objects) await readStoredObject(store, o.oid);
  assert.equal(cachedPackCount(cache), 5);

  assert.equal((await repackPacks({ gitdir: repo.gitdir, now, threads: 0 })).type, 'repacked');
  // The same store: its listing still names the removed packs, whose bytes it holds.
  for (const o of objects)
    assert.deepEqual(Buffer.from((await readStoredObject(store, o.oid)).content), Buffer.from(o.content));
  assert.equal(forgetRemovedPacks(cache), 5);
  assert.equal(cachedPackCount(cache), 0);
});

test('A reader that listed the old packs before a repack finds every object; the next pass lists again and holds only the new pack.', async () => {
  const repo = makeRepo({ bare: true });
  const objects = await pileOfPacks(repo.gitdir, 5);
  const cache = {};
  const store = openObjectStore(repo.gitdir, cache);
  // A miss lists and indexes every pack.
  await assert.rejects(readStoredObject(store, 'f'.repeat(40)), /no such object/);
  assert.equal(cachedPackCount(cache), 5);

  assert.equal((await repackPacks({ gitdir: repo.gitdir, now, threads: 0 })).type, 'repacked');
  for (const o of objects)
    assert.deepEqual(Buffer.from((await readStoredObject(store, o.oid)).content), Buffer.from(o.content));
  // The next pass's store is a new view of the repository: its first read lists again.
  const next = openObjectStore(repo.gitdir, cache);
  for (const o of objects)
    assert.deepEqual(Buffer.from((await readStoredObject(next, o.oid)).content), Buffer.from(o.content));
  assert.equal(cachedPackCount(cache), 1, 'the removed packs were dropped from the cache, the new one added');
});

test("A repack holds the repository's repack lock: a live holder makes another wait its turn; a dead one's lock is taken over.", async () => {
  const repo = makeRepo({ bare: true });
  await pileOfPacks(repo.gitdir, 3);
  const lock = join(repo.gitdir, 'objects', 'pack', 'gitfleet-repack.lock');
  writeFileSync(lock, `${hostname()} ${process.pid}`);
  assert.deepEqual(await repackPacks({ gitdir: repo.gitdir, now, threads: 0 }), {
    type: 'busy',
    holder: `${hostname()} ${process.pid}`,
  });
  assert.equal((await listPacks(repo.gitdir)).length, 3);
  // A pid that no process holds (above the kernel's pid_max).
  writeFileSync(lock, `${hostname()} 99999999`);
  assert.equal((await repackPacks({ gitdir: repo.gitdir, now, threads: 0 })).type, 'repacked');
  assert.equal(existsSync(lock), false);
});

test('A pack marked .keep is never rewritten.', async () => {
  const repo = makeRepo({ bare: true });
  await pileOfPacks(repo.gitdir, 3);
  const kept = (await listPacks(repo.gitdir))[0]!.name;
  writeFileSync(join(repo.gitdir, 'objects', 'pack', `${kept}.keep`), '');
  await addPileCommit(repo.gitdir, 9);
  const result = await repackPacks({ gitdir: repo.gitdir, now, threads: 0 });
  assert.equal(result.type, 'repacked');
  assert.ok(result.type === 'repacked' && !result.folded.includes(kept));
  assert.ok(existsSync(join(repo.gitdir, 'objects', 'pack', `${kept}.pack`)));
  git(repo, ['fsck', '--strict', '--no-dangling']);
});
