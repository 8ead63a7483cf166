import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { watchLocalRefs } from '../../../src/adapters/watch/watch-local-refs.js';
import { git, removeTempDirs, tempDir } from '../../git-server/git-cli.js';

after(removeTempDirs);

/** A work tree with one commit on main, and a watcher collecting every change it reports. */
async function watched(refs: string[]) {
  const dir = tempDir('watch');
  await git(dir, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  await git(dir, ['commit', '-q', '--allow-empty', '-m', 'first']);
  const calls: string[][] = [];
  const watcher = await watchLocalRefs({
    gitdir: `${dir}/.git`,
    refs,
    onChange: (r) => calls.push(r),
    debounceMs: 50,
  });
  return { dir, calls, watcher };
}

/** Waits until the watcher has reported something (a busy machine can take seconds), or for at most `ms`. */
async function settle(calls: string[][], ms = 15_000): Promise<void> {
  for (let waited = 0; calls.length === 0 && waited < ms; waited += 25) await sleep(25);
  await sleep(150); // let a debounced burst finish
}

/** Asserts the watcher reported, and every report names exactly `ref` (a busy machine can split a burst past the debounce). */
function assertReported(calls: string[][], ref: string): void {
  assert.ok(calls.length >= 1, 'reported');
  for (const call of calls) assert.deepEqual(call, [ref]);
}

test('A commit on a watched branch is reported, with the branch.', { timeout: 30_000 }, async () => {
  const { dir, calls, watcher } = await watched(['refs/heads/main']);
  try {
    await git(dir, ['commit', '-q', '--allow-empty', '-m', 'second']);
    await settle(calls);
    assertReported(calls, 'refs/heads/main');
  } finally {
    await watcher.close();
  }
});

test(
  'A branch created under a watched prefix is reported, even in a directory that did not exist.',
  { timeout: 30_000 },
  async () => {
    const { dir, calls, watcher } = await watched(['refs/heads/gitfleet/status/']);
    try {
      await git(dir, ['branch', 'gitfleet/status/member1']);
      await settle(calls);
      assertReported(calls, 'refs/heads/gitfleet/status/member1');
    } finally {
      await watcher.close();
    }
  },
);

test(
  'Packing the refs reports every watched ref, since any of them may have moved.',
  { timeout: 30_000 },
  async () => {
    const { dir, calls, watcher } = await watched(['refs/heads/main', 'refs/heads/gitfleet/']);
    try {
      await git(dir, ['pack-refs', '--all']);
      await settle(calls);
      assert.ok(calls.length >= 1);
      assert.deepEqual(calls[0], ['refs/heads/gitfleet/', 'refs/heads/main']);
    } finally {
      await watcher.close();
    }
  },
);

test(
  'A change to a branch nobody watches, or to the objects, reports nothing.',
  { timeout: 30_000 },
  async () => {
    const { dir, calls, watcher } = await watched(['refs/heads/main']);
    try {
      await git(dir, ['branch', 'feature']);
      writeFileSync(`${dir}/new.txt`, 'an object\n');
      await git(dir, ['hash-object', '-w', 'new.txt']);
      await sleep(400);
      assert.deepEqual(calls, []);
    } finally {
      await watcher.close();
    }
  },
);

test('After close, moving a watched branch reports nothing.', { timeout: 30_000 }, async () => {
  const { dir, calls, watcher } = await watched(['refs/heads/main']);
  await watcher.close();
  await git(dir, ['commit', '-q', '--allow-empty', '-m', 'after close']);
  await sleep(300);
  assert.deepEqual(calls, []);
});
