import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultBackoff } from '../../../src/loops/runtime/backoff.js';
import { createWorkQueue } from '../../../src/loops/runtime/work-queue.js';
import { fakeClock } from './fake-clock.js';

function queue() {
  const clock = fakeClock();
  return { clock, queue: createWorkQueue<string>({ clock, backoff: defaultBackoff(() => 0) }) };
}

test('a key added many times is queued once', async () => {
  const { queue: q } = queue();
  q.add('a');
  q.add('a');
  q.add('b');
  q.add('a');
  assert.equal(q.length, 2);
  assert.equal(await q.next(), 'a');
  assert.equal(await q.next(), 'b');
  assert.equal(q.length, 0);
});

test('a key added while it is processed is handed out again only after done', async () => {
  const { queue: q } = queue();
  q.add('a');
  const key = await q.next();
  q.add('a');
  q.add('a');
  assert.equal(q.length, 0, 'not handed to a second worker while the first holds it');
  q.done(key!);
  assert.equal(q.length, 1);
  assert.equal(await q.next(), 'a');
  q.done('a');
  assert.equal(q.length, 0);
});

test('a waiting worker gets a key as soon as it is added', async () => {
  const { queue: q } = queue();
  const waiting = q.next();
  q.add('x');
  assert.equal(await waiting, 'x');
});

test('failures are retried after exponentially growing delays, and a success forgets them', async () => {
  const { clock, queue: q } = queue();
  assert.equal(q.retryLater('a'), 1000);
  assert.equal(q.length, 0);
  clock.advance(999);
  assert.equal(q.length, 0);
  clock.advance(1);
  assert.equal(q.length, 1);
  await q.next();
  q.done('a');
  assert.equal(q.retryLater('a'), 2000);
  assert.equal(q.retryLater('a'), 4000);
  assert.equal(q.failures('a'), 3);
  q.forget('a');
  assert.equal(q.retryLater('a'), 1000);
});

test('of two delayed adds of one key the earlier wins and only one timer stays', () => {
  const { clock, queue: q } = queue();
  q.addAfter('a', 5000);
  q.addAfter('a', 1000);
  q.addAfter('a', 3000);
  assert.deepEqual(clock.pending(), [1000]);
  clock.advance(1000);
  assert.equal(q.length, 1);
});

test('after shutdown nothing is handed out, waiting workers are released and timers are cancelled', async () => {
  const { clock, queue: q } = queue();
  const waiting = q.next();
  q.addAfter('later', 1000);
  q.shutDown();
  assert.equal(await waiting, undefined);
  assert.deepEqual(clock.pending(), []);
  q.add('b');
  assert.equal(await q.next(), undefined);
});
