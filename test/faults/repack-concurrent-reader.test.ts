// Fault: a reader in another process (an agent or `gitfleet status` on the hub's repository)
// reads objects while the hub repacks it again and again. No read may fail: the new pack is
// visible before an old one is removed, and a reader that finds a pack gone lists again
// (adapters/git/read-git-object.ts).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listPacks } from '../../src/adapters/git/list-packs.js';
import { repackPacks } from '../../src/adapters/git/repack-packs.js';
import { eventually } from '../support/eventually.js';
import { makeRepo, removeRepos } from '../adapters/git/git-repo-fixture.js';
import { pileOfPacks } from '../adapters/git/pack-pile-fixture.js';
import { exitOf, fsckProblems } from './fault-fixture.js';

after(removeRepos);

const child = join(new URL('.', import.meta.url).pathname, 'read-objects-child.js');
const rounds = 8;

test(
  'A reader in another process reads every object without one failure while the repository is repacked under it.',
  { timeout: 300_000 },
  async () => {
    const repo = makeRepo({ bare: true });
    const objects = await pileOfPacks(repo.gitdir, 8, 2);
    const ids = join(repo.dir, 'ids.txt');
    writeFileSync(ids, objects.map((o) => o.oid).join('\n'));
    const reader = spawn(process.execPath, [child, repo.gitdir, ids], { stdio: ['pipe', 'pipe', 'pipe'] });
    const exit = exitOf(reader);
    let out = '';
    reader.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const sweeps = () => Number(/sweep (\d+) \d+\n(?![\s\S]*sweep)/.exec(out)?.[1] ?? 0);
    try {
      await eventually(() => sweeps() >= 1, 'the first sweep');
      let repacks = 0;
      for (let round = 0; round < rounds; round++) {
        // New packs and loose objects, as passes write them; then the repack folds them with the older ones.
        await pileOfPacks(repo.gitdir, 3, 1, 100 + round * 4);
        const at = sweeps();
        const result = await repackPacks({ gitdir: repo.gitdir, now: Date.now(), threads: 0, factor: 8 });
        if (result.type === 'repacked') repacks++;
        // A sweep that began after this repack ended, so each round's repack had the reader running.
        await eventually(() => sweeps() >= at + 2, `a full sweep after repack ${round + 1}`, 60_000);
      }
      assert.equal(repacks, rounds, 'every round folded packs');
    } finally {
      reader.stdin.end();
    }
    const done = await exit;
    assert.equal(done.code, 0, done.stderr);
    assert.doesNotMatch(done.stdout, /^error /m, 'no read failed');
    assert.match(done.stdout, /^done (\d+) 0$/m);
    assert.equal(fsckProblems(repo.gitdir), '');
    assert.equal((await listPacks(repo.gitdir)).length, 1);
  },
);
