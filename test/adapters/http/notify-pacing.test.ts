// The doorbell's pacing over real HTTP (adapters/http/notify-server.ts with ring-pacer.ts), its
// turns on a fake clock: a push slot per cluster, starting agents given turns on one timeline,
// and the agents whose branch moved answered a few a second instead of all at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startNotifyServer, type NotifyPacing } from '../../../src/adapters/http/notify-server.js';
import { parseNotifyTokens } from '../../../src/adapters/http/notify-tokens.js';
import { askPacing, waitForHead } from '../../../src/adapters/http/doorbell-request.js';
import { ringPacer } from '../../../src/adapters/http/ring-pacer.js';
import { fakeClock } from '../../loops/runtime/fake-clock.js';
import { eventually } from '../../support/eventually.js';

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);
const clusters = ['m1', 'm2', 'm3', 'm4'];
const tokens = parseNotifyTokens(JSON.stringify(Object.fromEntries(clusters.map((c) => [c, `t-${c}`]))), 't');

async function started(pacing: Omit<NotifyPacing, 'now'>) {
  const clock = fakeClock(0);
  const heads = new Map<string, string | null>(clusters.map((c) => [c, a]));
  const server = await startNotifyServer({
    port: 0,
    tokens,
    head: (c) => heads.get(c),
    setTimer: (cb, ms) => clock.setTimer(cb, ms),
    pacing: { ...pacing, now: () => clock.now() },
  });
  const req = (cluster: string) => ({ url: server.url, cluster, token: `t-${cluster}`, timeoutMs: 10_000 });
  return { server, clock, heads, req };
}

test('The pacing answer carries the push slot, and a starting agent its turn: two a second, a start taking two (its 2 reads, twice over).', async (t) => {
  const { server, req } = await started({
    ringsPerSecond: 2,
    pushSlot: (c) => ({ periodMs: 40_000, offsetMs: 10_000 * (Number(c.slice(1)) - 1), widthMs: 5000 }),
  });
  t.after(() => server.close());
  const answers = [];
  for (const c of clusters) answers.push(await askPacing(req(c), true));
  assert.deepEqual(
    answers.map((x) => (x.type === 'pacing' ? [x.pushSlot?.offsetMs, x.startInMs] : x.type)),
    [
      [0, 0],
      [10_000, 1000],
      [20_000, 2000],
      [30_000, 3000],
    ],
  );
  // Asked again later (not starting), the slot only: no turn is taken.
  const again = await askPacing(req('m1'), false);
  assert.deepEqual(again, {
    type: 'pacing',
    pushSlot: { periodMs: 40_000, offsetMs: 0, widthMs: 5000 },
    startInMs: 0,
  });
});

test('A start takes the turns the pacing gives its cluster: each start waits for the turns of those before it.', async (t) => {
  const { server, req } = await started({
    ringsPerSecond: 2,
    pushSlot: () => undefined,
    startTurns: (c) => (c === 'm2' ? 1.5 : 2),
  });
  t.after(() => server.close());
  const waits = [];
  for (const c of clusters) {
    const answer = await askPacing(req(c), true);
    waits.push(answer.type === 'pacing' ? answer.startInMs : answer.type);
  }
  // m1 takes 2 turns (1 s at two a second), m2 1.5 (0.75 s), m3 2: each start waits for those before it.
  assert.deepEqual(waits, [0, 1000, 1750, 2750]);
});

test('A hub that does not know its clusters yet asks the agent to come back (503 with Retry-After).', async (t) => {
  const { server, req } = await started({ pushSlot: () => 'unknown' });
  t.after(() => server.close());
  const answer = await askPacing(req('m1'), true);
  assert.equal(answer.type, 'unavailable');
  assert.equal(answer.type === 'unavailable' && answer.status, 503);
  assert.equal(answer.type === 'unavailable' && answer.retryAfterMs, 5000);
});

test('Without a budget (generic) there is no slot and no wait to start.', async (t) => {
  const { server, req } = await started({ pushSlot: () => undefined });
  t.after(() => server.close());
  assert.deepEqual(await askPacing(req('m2'), true), { type: 'pacing', pushSlot: null, startInMs: 0 });
});

test('After one push moves every branch, the held waits are answered one turn apart, not all at once.', async (t) => {
  const { server, clock, heads, req } = await started({ ringsPerSecond: 2, pushSlot: () => undefined });
  t.after(() => server.close());
  const answered: string[] = [];
  const waits = clusters.map((c) =>
    waitForHead(req(c), a).then((answer) => {
      answered.push(c);
      return answer;
    }),
  );
  await eventually(() => server.waiting() === clusters.length, 'every wait held');
  for (const c of clusters) {
    heads.set(c, b);
    server.moved(c, b);
  }
  clock.advance(0);
  await eventually(() => answered.length === 1, 'the first turn, now');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(answered, ['m1'], 'only the first turn is now');
  clock.advance(500);
  await eventually(() => answered.length === 2, 'the second turn, half a second later');
  clock.advance(1000);
  await eventually(() => answered.length === 4, 'the rest, a turn each');
  for (const answer of await Promise.all(waits)) assert.deepEqual(answer, { type: 'moved', head: b });
});

test('A wait that names an old head is held for its turn too, behind the rings before it.', async (t) => {
  const { server, clock, heads, req } = await started({ ringsPerSecond: 1, pushSlot: () => undefined });
  t.after(() => server.close());
  heads.set('m1', b);
  server.moved('m1', b);
  heads.set('m2', b);
  let late: unknown;
  void waitForHead(req('m2'), a).then((x) => (late = x));
  await eventually(() => server.waiting() === 1, 'm2 held, not answered at once');
  assert.equal(late, undefined);
  clock.advance(1000);
  await eventually(() => late !== undefined, 'answered at its turn');
  assert.deepEqual(late, { type: 'moved', head: b });
});

test('A cluster that moves twice while it waits for its turn keeps one turn: one answer, the newest head.', () => {
  const clock = fakeClock(0);
  const rings = ringPacer({
    perSecond: 1,
    now: () => clock.now(),
    setTimer: (cb, ms) => clock.setTimer(cb, ms),
  });
  const fired: string[] = [];
  rings.ring('m1', () => fired.push('m1 first'));
  rings.ring('m2', () => fired.push('m2'));
  rings.ring('m2', () => fired.push('m2 newest'));
  clock.advance(0);
  assert.deepEqual(fired, ['m1 first']);
  assert.equal(rings.waiting(), 1, 'm1 fired at once, m2 waits');
  clock.advance(1000);
  assert.deepEqual(fired, ['m1 first', 'm2 newest']);
  assert.equal(rings.reserve(), 1000, 'the next free turn is a second after the last');
});

test('Rings take turns on the timeline of the repository the branch lives in: two render repositories answer one each at once.', async (t) => {
  const { server, clock, heads, req } = await started({
    ringsPerSecond: 1,
    // m1, m2 in render repository a; m3 in b; m4 in the fleet repository (the default timeline).
    timelineOf: (c) => (c === 'm4' ? undefined : { key: c === 'm3' ? 'b' : 'a', perSecond: 1 }),
    pushSlot: () => undefined,
  });
  t.after(() => server.close());
  const answered: string[] = [];
  const waits = clusters.map((c) => waitForHead(req(c), a).then(() => answered.push(c)));
  await eventually(() => server.waiting() === clusters.length, 'every wait held');
  for (const c of clusters) {
    heads.set(c, b);
    server.moved(c, b);
  }
  clock.advance(0);
  await eventually(() => answered.length === 3, 'the first turn of a, of b and of the fleet repository');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(answered.sort(), ['m1', 'm3', 'm4'], 'm2 waits behind m1 in a');
  clock.advance(1000);
  await Promise.all(waits);
  assert.deepEqual(answered.sort(), clusters);
});
