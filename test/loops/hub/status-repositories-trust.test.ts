// A status repository's read standing at a pass (loops/hub/status-repositories.ts `trustMs`): the
// cluster monitor's look reads every status repository and says whether one moved; a pass takes a
// mirror's last good read while it is younger than `trustMs`, and reads it again past that, after
// a failed read, or when it was never read. A local path is read at every pass. Real
// repositories on disk; the repository handed out is gitfleet's own HubRepo, its refreshes
// counted, marked as a mirror (a branch prefix) where the test says so; the clock is injected.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { localHubRepo, type HubRepo } from '../../../src/adapters/remote/hub-repo.js';
import { StatusRepositories } from '../../../src/loops/hub/status-repositories.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { emptyBareRepo, removeFleetRepos } from './hub-fixture.js';

after(removeFleetRepos);

const prefix = 'gitfleet/';
const statusRef = `refs/heads/${prefix}status/member1`;

/** Writes a commit on the status ref of member1 in a bare repository; returns its id. */
function writeStatus(gitdir: string, text: string): string {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const run = (args: string[], input = '') =>
    execFileSync('git', ['--git-dir', gitdir, ...args], { env, input })
      .toString()
      .trim();
  const blob = run(['hash-object', '-w', '--stdin'], text);
  const tree = run(['mktree'], `100644 blob ${blob}\tstatus.yaml\n`);
  const commit = run(
    ['-c', 'user.name=agent', '-c', 'user.email=agent@example.com', 'commit-tree', tree, '-m', text],
    '',
  );
  run(['update-ref', statusRef, commit]);
  return commit;
}

/** Opens the repository with its refreshes counted; a mirror has a branch prefix; `failing` refreshes throw. */
function counted(opts: { mirror: boolean; failing?: { count: number } }) {
  const reads: string[] = [];
  const open = (path: string): HubRepo => {
    const repo = localHubRepo(path);
    return {
      ...repo,
      ...(opts.mirror ? { branchPrefix: prefix } : {}),
      refresh: async () => {
        reads.push(path);
        if (opts.failing && opts.failing.count > 0) {
          opts.failing.count--;
          throw new Error('the host did not answer');
        }
        await repo.refresh();
      },
    };
  };
  return { reads, open };
}

function statusRepositories(open: (url: string) => HubRepo, clock: { now: number }) {
  return new StatusRepositories({
    open,
    branchPrefix: () => prefix,
    log: silentLogger(),
    trustMs: 10_000,
    now: () => clock.now,
  });
}

const headOf = (repos: StatusRepositories) => repos.overlay(new Map()).get(statusRef);

test("a pass takes a mirror's read by the monitor while it stands, the monitor's look reads and sees the move, and past trustMs a pass reads again", async () => {
  const url = emptyBareRepo();
  const first = writeStatus(url, 'one');
  const clock = { now: 1_000_000 };
  const { reads, open } = counted({ mirror: true });
  const repos = statusRepositories(open, clock);
  repos.assign(new Map([['member1', url]]), prefix);

  assert.equal(await repos.look(), true, 'the first look finds the status');
  assert.equal(reads.length, 1);
  clock.now += 5_000;
  await repos.refresh();
  assert.equal(reads.length, 1, 'a pass within the period reads nothing');
  assert.equal(headOf(repos), first);

  const second = writeStatus(url, 'two');
  await repos.refresh(repos.refreshAhead());
  assert.equal(reads.length, 1, 'nor does a pass refreshing ahead');
  assert.equal(headOf(repos), first, 'the pass judges what the monitor read');
  assert.equal(await repos.look(), true, 'the look reads whatever the trust, and says it moved');
  assert.equal(reads.length, 2);
  assert.equal(headOf(repos), second);

  clock.now += 9_999;
  await repos.refresh();
  assert.equal(reads.length, 2);
  clock.now += 1;
  await repos.refresh();
  assert.equal(reads.length, 3, 'past trustMs a pass reads');
  assert.equal(await repos.look(), false, 'nothing moved since');
});

test('a pass reads a mirror whose last read failed, one never read, and a local path every time', async () => {
  const url = emptyBareRepo();
  writeStatus(url, 'one');
  const clock = { now: 1_000_000 };
  const failing = { count: 1 };
  const mirror = counted({ mirror: true, failing });
  const repos = statusRepositories(mirror.open, clock);
  repos.assign(new Map([['member1', url]]), prefix);
  await repos.refresh();
  assert.equal(mirror.reads.length, 1, 'never read: read');
  assert.match(repos.unreadable().get('member1') ?? '', /did not answer/);
  await repos.refresh();
  assert.equal(mirror.reads.length, 2, 'failed: read again at the next pass');
  assert.equal(repos.unreadable().size, 0);
  await repos.refresh();
  assert.equal(mirror.reads.length, 2, 'then it stands');

  const local = counted({ mirror: false });
  const inPlace = statusRepositories(local.open, clock);
  inPlace.assign(new Map([['member1', url]]), prefix);
  await inPlace.look();
  await inPlace.refresh();
  await inPlace.refresh();
  assert.equal(local.reads.length, 3, 'a local path is read in place at every pass');
});

test('without trustMs (the default) every pass reads every repository, as before', async () => {
  const url = emptyBareRepo();
  writeStatus(url, 'one');
  const { reads, open } = counted({ mirror: true });
  const repos = new StatusRepositories({ open, branchPrefix: () => prefix, log: silentLogger() });
  repos.assign(new Map([['member1', url]]), prefix);
  await repos.look();
  await repos.refresh();
  await repos.refresh();
  assert.equal(reads.length, 3);
});
