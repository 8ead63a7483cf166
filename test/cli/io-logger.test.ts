import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ioLogger } from '../../src/cli/io-logger.js';
import type { Io } from '../../src/cli/io.js';
import { fakeClock } from '../loops/runtime/fake-clock.js';

function capture(): Io & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    out: () => undefined,
    err: (t) => lines.push(t),
    untilInterrupted: () => new Promise(() => {}),
  };
}

test('the text format stamps each line with the clock’s time (RFC 3339, UTC, milliseconds), then the speaker, then warning: or error:, and no fields', () => {
  const io = capture();
  const clock = fakeClock(Date.UTC(2026, 11, 5, 9, 15, 36, 123));
  const log = ioLogger(io, 'agent member1', { clock });
  log.info('following refs/heads/gitfleet/clusters/member1', { cluster: 'member1' });
  clock.advance(1001);
  log.warn('slow', { commit: 'abc' });
  log.error('Deployment/default/web: apply failed: no', { code: 'ApplyFailed' });
  assert.deepEqual(io.lines, [
    '2026-12-05T09:15:36.123Z agent member1: following refs/heads/gitfleet/clusters/member1',
    '2026-12-05T09:15:37.124Z agent member1: warning: slow',
    '2026-12-05T09:15:37.124Z agent member1: error: Deployment/default/web: apply failed: no',
  ]);
});

test('--log-level drops the lines below it: debug shows all four, info (the default) no debug, error only errors', () => {
  const said = (level?: 'debug' | 'info' | 'warn' | 'error') => {
    const io = capture();
    const log = ioLogger(io, 'hub', { clock: fakeClock(0), ...(level ? { level } : {}) });
    log.debug?.('a pass changed nothing');
    log.info('rendered');
    log.warn('slow');
    log.error('failed');
    return io.lines.map((l) => l.replace(/^\S+ hub: /, ''));
  };
  assert.deepEqual(said('debug'), [
    'debug: a pass changed nothing',
    'rendered',
    'warning: slow',
    'error: failed',
  ]);
  assert.deepEqual(said(), ['rendered', 'warning: slow', 'error: failed']);
  assert.deepEqual(said('warn'), ['warning: slow', 'error: failed']);
  assert.deepEqual(said('error'), ['error: failed']);
  const json = capture();
  ioLogger(json, 'hub', { format: 'json', level: 'debug', clock: fakeClock(0) }).debug?.('quiet');
  assert.equal(JSON.parse(json.lines[0]!).level, 'debug');
});

test('a speaker that is not an agent keeps its whole name', () => {
  const io = capture();
  ioLogger(io, 'gitfleet ui', { clock: fakeClock(0) }).warn('--host 0.0.0.0 is not a loopback address');
  assert.deepEqual(io.lines, [
    '1970-01-01T00:00:00.000Z gitfleet ui: warning: --host 0.0.0.0 is not a loopback address',
  ]);
});

test('the json format writes one object per line: time from the clock, level, speaker, cluster, fields, message', () => {
  const io = capture();
  const clock = fakeClock(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
  const log = ioLogger(io, { name: 'agent', cluster: 'member1' }, { format: 'json', clock });
  log.info('applied', { commit: 'c0ffee', object: 'apps/web.yaml', skipped: undefined });
  log.warn('line one\nline two');
  log.error('failed', { code: 'Unreachable', speaker: 'not me' });
  const records = io.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(io.lines.length, 3);
  assert.ok(
    io.lines.every((l) => !l.includes('\n')),
    'one line each',
  );
  assert.deepEqual(records[0], {
    time: '2026-01-02T03:04:05.678Z',
    level: 'info',
    speaker: 'agent',
    cluster: 'member1',
    commit: 'c0ffee',
    object: 'apps/web.yaml',
    message: 'applied',
  });
  assert.equal(records[1]?.level, 'warning');
  assert.equal(records[1]?.message, 'line one\nline two');
  assert.deepEqual(records[2], {
    time: '2026-01-02T03:04:05.678Z',
    level: 'error',
    speaker: 'agent',
    cluster: 'member1',
    code: 'Unreachable',
    message: 'failed',
  });
});

test('a known secret is masked in both formats', () => {
  for (const format of ['text', 'json'] as const) {
    const io = capture();
    const log = ioLogger(io, 'hub', { format, secrets: ['s3cr3t-t0ken', undefined, ''] });
    log.error('fetch failed: 401 for Bearer s3cr3t-t0ken', { detail: 'x s3cr3t-t0ken' });
    assert.equal(io.lines.length, 1);
    assert.doesNotMatch(io.lines[0]!, /s3cr3t-t0ken/, format);
    assert.match(io.lines[0]!, /Bearer \*\*\*/, format);
  }
});
