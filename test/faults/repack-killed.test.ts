// Fault: the repack of a hub's repository is killed (SIGKILL) at each point between its steps
// (adapters/git/repack-packs.ts): with its new pack half written, written but not renamed,
// renamed without its index, visible, journaled, and after it removed the first old pack. Each
// time the repository must stay sound as it is (`git fsck`, every ref at its commit), the next
// hub pass must work, and the hub's own maintenance after that pass must finish what the killed
// repack left (its journal, temp files and lock) so nothing is left behind.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { listPacks } from '../../src/adapters/git/list-packs.js';
import type { RepackStep } from '../../src/adapters/git/repack-packs.js';
import { pileOfPacks } from '../adapters/git/pack-pile-fixture.js';
import {
  bumpedFleet,
  commitFleetFiles,
  copyRepo,
  exitOf,
  fsckProblems,
  generatedFleetRepo,
  gitAt,
  removeScratch,
  runCliProcess,
} from './fault-fixture.js';

after(removeScratch);

const child = join(new URL('.', import.meta.url).pathname, 'repack-child.js');
const shape = { templates: 60, clusters: 6 };
const steps: RepackStep[] = [
  'packStarted',
  'packWritten',
  'packRenamed',
  'packIndexed',
  'journalWritten',
  'oldPackRemoved',
];

/**
 * What the hub's maintenance says after the next pass. Before the journal, the killed repack
 * left temp files only, which the pass's own pack write removes; from the journal on, the
 * maintenance finishes the journal: before the new index was renamed in, by removing the new
 * pack's data and folding again; after, by removing the old packs (then nothing is left to fold).
 */
const expectedMaintenance: Record<RepackStep, RegExp> = {
  packStarted: /folded \d+ packs and \d+ loose objects into pack-[0-9a-f]{40} \(\d+ objects, \d+ ms\)/,
  packWritten: /folded \d+ packs and \d+ loose objects into pack-[0-9a-f]{40} \(\d+ objects, \d+ ms\)/,
  journalWritten:
    /folded \d+ packs and \d+ loose objects into pack-[0-9a-f]{40} \(\d+ objects; removed 1 leftovers/,
  packRenamed:
    /folded \d+ packs and \d+ loose objects into pack-[0-9a-f]{40} \(\d+ objects; removed 1 leftovers/,
  packIndexed: /packs checked, nothing to fold; removed [1-9]\d* leftovers/,
  oldPackRemoved: /packs checked, nothing to fold; removed [1-9]\d* leftovers/,
};

/** A rendered fleet repository with 24 small packs and some loose objects beside the hub's. */
async function pileUp(): Promise<string> {
  const fleet = generatedFleetRepo(shape);
  const first = await runCliProcess(['hub', '--repo', fleet, '--once']);
  assert.equal(first.code, 0, `the first pass: ${first.stdout}${first.stderr}`);
  await pileOfPacks(fleet, 24, 2);
  return fleet;
}

function refs(gitdir: string): string {
  return gitAt(gitdir, ['for-each-ref', '--format=%(refname) %(objectname)']);
}

/** Files a repack leaves only while it runs or when it was killed. */
function leftovers(gitdir: string): string[] {
  return readdirSync(join(gitdir, 'objects', 'pack')).filter(
    (n) => !/^pack-[0-9a-f]{40}\.(pack|idx)$/.test(n),
  );
}

/** Starts the repack in a child and kills it with SIGKILL once it says it reached the step. */
async function killRepackAt(gitdir: string, step: RepackStep): Promise<void> {
  const proc = spawn(process.execPath, [child, gitdir, step], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exit = exitOf(proc);
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(`at ${step}\n`)) resolve();
    });
    proc.on('close', () => reject(new Error(`the repack ended before ${step}: ${seen}`)));
  });
  proc.kill('SIGKILL');
  const ended = await exit;
  assert.equal(
    ended.signal,
    'SIGKILL',
    `the repack at ${step} ended otherwise: ${ended.stdout}${ended.stderr}`,
  );
}

test(
  'A repack killed at any step leaves a sound repository; the next pass works and its maintenance finishes the repack.',
  { timeout: 300_000 },
  async () => {
    const base = await pileUp();
    const packsBefore = (await listPacks(base)).length;
    assert.ok(packsBefore > 20, `${packsBefore} packs`);
    for (const step of steps) {
      const repo = copyRepo(base);
      const before = refs(repo);
      await killRepackAt(repo, step);
      assert.equal(fsckProblems(repo), '', `killed at ${step}: git fsck`);
      assert.equal(refs(repo), before, `killed at ${step}: every ref where it was`);
      assert.ok(leftovers(repo).length > 0, `killed at ${step}: the repack left its lock (at least)`);

      commitFleetFiles(repo, bumpedFleet(shape), 'bump every image');
      const next = await runCliProcess(['hub', '--repo', repo, '--once']);
      assert.equal(next.code, 0, `killed at ${step}: the next pass: ${next.stderr}`);
      assert.match(
        next.stderr,
        expectedMaintenance[step],
        `killed at ${step}: the hub's maintenance ran after the pass and cleaned up`,
      );
      assert.equal(fsckProblems(repo), '', `killed at ${step}: git fsck after the pass and its repack`);
      assert.deepEqual(leftovers(repo), [], `killed at ${step}: nothing left behind`);
      assert.ok((await listPacks(repo)).length < 8, `killed at ${step}: the packs were folded`);
      assert.equal(
        existsSync(join(repo, 'objects', 'pack', 'gitfleet-repack.journal')),
        false,
        'no journal left',
      );
      const garbage = gitAt(repo, ['count-objects', '-v']).match(/^garbage: (\d+)$/m)?.[1];
      assert.equal(garbage, '0', `killed at ${step}: no file git counts as garbage`);
    }
  },
);
