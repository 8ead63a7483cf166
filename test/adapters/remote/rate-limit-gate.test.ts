import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  askedWaitMs,
  isRateLimitAnswer,
  jitterMsOf,
  rateLimitGates,
} from '../../../src/adapters/remote/rate-limit-gate.js';
import { isRemoteError } from '../../../src/adapters/remote/remote-error.js';
import { RateLimitedError } from '../../../src/adapters/remote/rate-limited-error.js';

const start = Date.parse('2026-12-04T12:00:00Z');
const url = 'https://git.example/fleet.git';

function gatesAt(random = 0) {
  let now = start;
  const notices: string[] = [];
  const limited: string[] = [];
  const gates = rateLimitGates({
    now: () => now,
    random: () => random,
    onNotice: (n) => notices.push(n.message),
    onLimited: (r) => limited.push(r),
  });
  return {
    gate: gates.gateFor(url),
    gates,
    notices,
    limited,
    advance: (ms: number) => void (now += ms),
    now: () => now,
  };
}

test('Which answers are rate limits: 429, and 403 only when it says so.', () => {
  const cases = [
    { name: '429 alone', given: [429, 'Too Many Requests', {}], want: true },
    {
      name: '403 with X-RateLimit-Remaining 0',
      given: [403, 'Forbidden', { 'x-ratelimit-remaining': '0' }],
      want: true,
    },
    { name: '403 with Retry-After', given: [403, 'Forbidden', { 'retry-after': '30' }], want: true },
    {
      name: '403 whose status text names the rate limit',
      given: [403, 'rate limit exceeded', {}],
      want: true,
    },
    {
      name: 'a plain 403 (the token may not do this)',
      given: [403, 'Forbidden', { 'x-ratelimit-remaining': '10' }],
      want: false,
    },
    {
      name: '503 with Retry-After (an outage, not a limit)',
      given: [503, 'Unavailable', { 'retry-after': '5' }],
      want: false,
    },
  ] as const;
  for (const c of cases) assert.equal(isRateLimitAnswer(c.given[0], c.given[1], c.given[2]), c.want, c.name);
});

test('The wait asked for: Retry-After in seconds or as an HTTP date, else X-RateLimit-Reset in epoch seconds.', () => {
  const now = start;
  assert.equal(askedWaitMs({ 'retry-after': '60' }, now), 60_000);
  assert.equal(askedWaitMs({ 'retry-after': new Date(now + 90_000).toUTCString() }, now), 90_000);
  assert.equal(askedWaitMs({ 'x-ratelimit-reset': String((now + 120_000) / 1000) }, now), 120_000);
  assert.equal(askedWaitMs({ 'retry-after': '5', 'x-ratelimit-reset': String(now / 1000 + 999) }, now), 5000);
  assert.equal(askedWaitMs({}, now), undefined);
});

test('A 429 closes the gate for Retry-After plus jitter; while closed it refuses with RateLimited; an answer in flight never opens it earlier.', () => {
  const g = gatesAt(0.5);
  const error = g.gate.observe(429, 'Too Many Requests', { 'retry-after': '60' });
  assert.ok(error instanceof RateLimitedError);
  assert.ok(isRemoteError(error, 'RateLimited'));
  assert.equal(error.terminal, false);
  // 60 s asked, and half of the 10 % jitter.
  assert.equal(error.retryAt, start + 63_000);
  assert.equal(g.gate.opensAt(), start + 63_000);
  assert.equal(
    error.message,
    `${url}: rate limited by the server (429); next request at 2026-12-04T12:01:03.000Z`,
  );
  // The answer of another request in flight asks for less: the gate stays closed as long.
  g.advance(1000);
  g.gate.observe(429, 'Too Many Requests', { 'retry-after': '1' });
  assert.equal(g.gate.opensAt(), start + 63_000);
  g.advance(61_999);
  assert.throws(
    () => g.gate.check(),
    (e: unknown) => isRemoteError(e, 'RateLimited'),
  );
  g.advance(1);
  g.gate.check();
  assert.equal(g.gate.opensAt(), 0);
  assert.deepEqual(g.limited, [url, url]);
  assert.equal(g.notices.length, 1);
});

test('Without a wait named, the gate waits 60 s, then twice as long at each limit in a row, up to 15 min; a success ends the run.', () => {
  const g = gatesAt(0);
  const waits: number[] = [];
  for (let i = 0; i < 6; i++) {
    const error = g.gate.observe(429, '', {})!;
    waits.push(error.retryAt - g.now());
    g.advance(error.retryAt - g.now());
  }
  assert.deepEqual(waits, [60_000, 120_000, 240_000, 480_000, 900_000, 900_000]);
  assert.equal(g.gate.observe(200, 'OK', {}), undefined);
  assert.equal(g.gate.observe(429, '', {})!.retryAt - g.now(), 60_000);
});

test('The jitter spreads a short wait over at least 2 s, and a long one costs at most a tenth more than asked.', () => {
  const cases = [
    { name: 'Retry-After: 1 (a forge refusing a burst)', given: 1, want: { least: 1000, most: 3000 } },
    { name: 'Retry-After: 10', given: 10, want: { least: 10_000, most: 12_000 } },
    { name: 'Retry-After: 60', given: 60, want: { least: 60_000, most: 66_000 } },
    { name: 'Retry-After: 3600 (an hour)', given: 3600, want: { least: 3_600_000, most: 3_960_000 } },
  ];
  for (const c of cases) {
    const wait = (random: number) =>
      gatesAt(random).gate.observe(429, '', { 'retry-after': String(c.given) })!.retryAt - start;
    assert.equal(wait(0), c.want.least, `${c.name}: at least what was asked`);
    assert.equal(wait(1), c.want.most, `${c.name}: at most`);
    assert.equal(jitterMsOf(c.given * 1000), c.want.most - c.want.least, c.name);
  }
});

test('A wait of nothing is still one second, so "Retry-After: 0" makes no storm.', () => {
  const g = gatesAt(0);
  assert.equal(g.gate.observe(429, '', { 'retry-after': '0' })!.retryAt, start + 1000);
});

test('One line per change of the wait, not per limited answer, and one when the server answers again.', () => {
  const g = gatesAt(0);
  for (let i = 0; i < 5; i++) {
    g.gate.observe(429, '', { 'retry-after': '60' });
    g.advance(60_000);
  }
  g.gate.observe(403, 'Forbidden', { 'x-ratelimit-remaining': '0', 'retry-after': '300' });
  g.advance(300_000);
  g.gate.observe(200, 'OK', {});
  assert.deepEqual(g.notices, [
    `${url}: rate limited by the server (429); next request at 2026-12-04T12:01:00.000Z`,
    `${url}: rate limited by the server (403); next request at 2026-12-04T12:10:00.000Z`,
    `${url}: the server answers again after 6 rate-limited answers`,
  ]);
  assert.equal(g.limited.length, 6);
});

test('A success sent before the limit and answered after it does not end the run; one sent after it does.', () => {
  const g = gatesAt(0);
  const early = g.gate.check();
  g.gate.observe(429, '', { 'retry-after': '60' });
  g.gate.observe(200, 'OK', {}, early);
  assert.equal(g.notices.length, 1);
  g.advance(60_000);
  const late = g.gate.check();
  g.gate.observe(200, 'OK', {}, late);
  assert.deepEqual(g.notices.at(-1), `${url}: the server answers again after 1 rate-limited answers`);
});

test('Every repository has its own gate, and one URL always the same one.', () => {
  const g = gatesAt(0);
  g.gate.observe(429, '', { 'retry-after': '60' });
  assert.equal(g.gates.gateFor(url), g.gate);
  g.gates.gateFor('https://git.example/status.git').check();
  assert.throws(() => g.gates.gateFor(url).check(), /rate limited/);
});
