// The hub's commit-status worker on a fake forge and a fake clock: it posts only when the
// aggregate changes, learns what the forge shows after a restart, supersedes a commit left
// pending, never holds the caller (a forge that hangs holds only the worker), logs a refusal
// once and retries it after the forge's rate-limit wait or with backoff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commitStatusWorker, type CommitStatusPoster } from '../../../src/loops/hub/commit-status-worker.js';
import type { DeployStatus, DeployStatusInput } from '../../../src/core/notify/deploy-status.js';
import { RateLimitedError } from '../../../src/adapters/remote/rate-limited-error.js';
import { ForgeStatusError } from '../../../src/adapters/forge-status/forge-status-error.js';
import { fakeClock } from '../runtime/fake-clock.js';

const s1 = 'c3'.repeat(20);
const s2 = 'd4'.repeat(20);

type Posted = { sha: string; context: string } & DeployStatus;

function fakeForge(shown: Map<string, DeployStatus> = new Map()) {
  const posted: Posted[] = [];
  let failWith: (() => unknown) | undefined;
  let hang: Promise<void> | undefined;
  const forge: CommitStatusPoster & {
    posted: Posted[];
    reads: string[];
    fail(f: (() => unknown) | undefined): void;
    hangUntil(p: Promise<void> | undefined): void;
  } = {
    posted,
    reads: [],
    fail: (f) => (failWith = f),
    hangUntil: (p) => (hang = p),
    post: async (s) => {
      if (hang) await hang;
      if (failWith) throw failWith();
      posted.push({ sha: s.sha, context: s.context, state: s.state, description: s.description });
      shown.set(s.sha, { state: s.state, description: s.description });
    },
    latest: (sha) => {
      forge.reads.push(sha);
      return Promise.resolve(shown.get(sha));
    },
  };
  return forge;
}

function input(sourceCommit: string, states: ('Healthy' | 'Progressing')[]): DeployStatusInput {
  return {
    sourceCommit,
    clusters: states.map((type, i) => ({
      name: `member${i + 1}`,
      state: type === 'Healthy' ? { type } : { type, why: 'applying' },
    })),
    stopped: [],
  };
}

function setUp(forge: CommitStatusPoster, first: DeployStatusInput | undefined) {
  const clock = fakeClock();
  const warnings: string[] = [];
  let current: DeployStatusInput | undefined = first;
  let reads = 0;
  const worker = commitStatusWorker({
    read: () => {
      reads++;
      return Promise.resolve(current);
    },
    forge,
    context: 'gitfleet/deploy',
    clock,
    random: () => 0,
    log: { info: () => undefined, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
  });
  return {
    worker,
    clock,
    warnings,
    set: (next: DeployStatusInput | undefined) => (current = next),
    reads: () => reads,
  };
}

/** Sets what the next read gives and runs the worker once, as a pass would. */
async function passWith(w: ReturnType<typeof setUp>, next: DeployStatusInput): Promise<void> {
  w.set(next);
  w.worker.nudge();
  await w.worker.settled();
}

const brief = (p: Posted[]) => p.map((x) => `${x.sha.slice(0, 2)} ${x.state}: ${x.description}`);

test('it posts when the aggregate changes and never for a pass that changes nothing', async () => {
  const forge = fakeForge();
  const w = setUp(forge, input(s1, ['Progressing', 'Progressing']));
  for (let i = 0; i < 5; i++) {
    w.worker.nudge();
    await w.worker.settled();
  }
  await passWith(w, input(s1, ['Healthy', 'Progressing']));
  w.worker.nudge();
  await w.worker.settled();
  await passWith(w, input(s1, ['Healthy', 'Healthy']));
  assert.deepEqual(brief(forge.posted), [
    'c3 pending: healthy on 0/2 clusters, 2 progressing',
    'c3 pending: healthy on 1/2 clusters, 1 progressing',
    'c3 success: healthy on 2/2 clusters',
  ]);
  assert.deepEqual(forge.reads, [s1], 'the forge is asked what it shows once per commit');
});

test('a burst of nudges while a run is in hand is one more run, not one per nudge', async () => {
  const forge = fakeForge();
  const w = setUp(forge, input(s1, ['Progressing']));
  for (let i = 0; i < 20; i++) w.worker.nudge();
  await w.worker.settled();
  assert.ok(w.reads() <= 2, `${w.reads()} reads for 20 nudges`);
  assert.equal(forge.posted.length, 1);
});

test('after a restart it posts nothing when the forge already shows the same status', async () => {
  const forge = fakeForge(
    new Map([[s1, { state: 'pending', description: 'healthy on 1/2 clusters, 1 progressing' }]]),
  );
  const w = setUp(forge, input(s1, ['Healthy', 'Progressing']));
  w.worker.nudge();
  await w.worker.settled();
  assert.deepEqual(forge.posted, []);
  await passWith(w, input(s1, ['Healthy', 'Healthy']));
  assert.deepEqual(brief(forge.posted), ['c3 success: healthy on 2/2 clusters']);
});

test('a newer source commit supersedes one still pending; a final one is left alone', async () => {
  const forge = fakeForge();
  const w = setUp(forge, input(s1, ['Healthy', 'Progressing']));
  w.worker.nudge();
  await w.worker.settled();
  await passWith(w, input(s2, ['Progressing', 'Progressing']));
  await passWith(w, input(s2, ['Healthy', 'Healthy']));
  await passWith(w, input(s1, ['Healthy', 'Healthy']));
  assert.deepEqual(brief(forge.posted), [
    'c3 pending: healthy on 1/2 clusters, 1 progressing',
    'c3 canceled: superseded by d4d4d4d before it was final (healthy on 1/2 clusters, 1 progressing)',
    'd4 pending: healthy on 0/2 clusters, 2 progressing',
    'd4 success: healthy on 2/2 clusters',
    'c3 success: healthy on 2/2 clusters',
  ]);
});

test('a forge that hangs holds only the worker: nudges return at once and pile into one run', async () => {
  const forge = fakeForge();
  let release!: () => void;
  forge.hangUntil(new Promise<void>((resolve) => (release = resolve)));
  const w = setUp(forge, input(s1, ['Progressing']));
  let passes = 0;
  for (let i = 0; i < 3; i++) {
    w.worker.nudge(); // what the hub loop does after each pass
    passes++;
  }
  assert.equal(passes, 3, 'the passes went on');
  assert.equal(forge.posted.length, 0);
  forge.hangUntil(undefined);
  release();
  await w.worker.settled();
  assert.equal(forge.posted.length, 1);
});

test('a refusal is logged once however often it repeats, retried with backoff, and told when it passes', async () => {
  const forge = fakeForge();
  forge.fail(() => new ForgeStatusError('ForgeUnreachable', 'http://forge/statuses: the forge answered 500'));
  const w = setUp(forge, input(s1, ['Progressing']));
  w.worker.nudge();
  await w.worker.settled();
  for (let i = 0; i < 6; i++) {
    assert.equal(w.clock.pending().length, 1, 'one retry is scheduled');
    w.clock.advance(w.clock.pending()[0]!);
    await w.worker.settled();
  }
  assert.equal(w.warnings.length, 1, w.warnings.join('\n'));
  assert.match(
    w.warnings[0]!,
    /commit status gitfleet\/deploy: http:\/\/forge\/statuses: the forge answered 500; retrying/,
  );
  assert.equal(forge.posted.length, 0);
  forge.fail(undefined);
  w.clock.advance(w.clock.pending()[0]!);
  await w.worker.settled();
  assert.equal(forge.posted.length, 1);
  assert.deepEqual(w.clock.pending(), [], 'nothing more to retry');
});

test('a rate-limit answer is retried when the forge said, not before', async () => {
  const forge = fakeForge();
  const w = setUp(forge, input(s1, ['Progressing']));
  const retryAt = w.clock.now() + 300_000;
  forge.fail(
    () => new RateLimitedError('http://forge: rate limited by the server (429)', retryAt, 429, 300_000),
  );
  w.worker.nudge();
  await w.worker.settled();
  assert.deepEqual(w.clock.pending(), [300_000]);
  forge.fail(undefined);
  w.worker.nudge(); // a pass in the meantime does not cut the wait short
  await w.worker.settled();
  assert.equal(forge.posted.length, 0);
  w.clock.advance(300_000);
  await w.worker.settled();
  assert.equal(forge.posted.length, 1);
});

test('nothing is posted before the hub has rendered, and nothing after close', async () => {
  const forge = fakeForge();
  const w = setUp(forge, undefined);
  w.worker.nudge();
  await w.worker.settled();
  await w.worker.close();
  await passWith(w, input(s1, ['Healthy']));
  assert.deepEqual(forge.posted, []);
});
