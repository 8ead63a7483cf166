// The process's last resort (src/cli/last-resort.ts), in real processes: an exception thrown
// from a timer and a rejection nothing awaited are logged through the command's logger (subject
// first, then the stack) and the process exits `crashed`, never silently or with Node's trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { exitCodes } from '../../src/cli/exit-codes.js';

const buildRoot = join(new URL('.', import.meta.url).pathname, '../..');

/** Runs a module script that installs the last resort as runMain does, then does `fault`. */
function crash(fault: string, format: 'text' | 'json') {
  const json = format === 'json';
  const script = `
    import { installLastResort, setLastResortLogger } from ${JSON.stringify(join(buildRoot, 'src/cli/last-resort.js'))};
    import { ioLogger } from ${JSON.stringify(join(buildRoot, 'src/cli/io-logger.js'))};
    import { processIo } from ${JSON.stringify(join(buildRoot, 'src/cli/io.js'))};
    import { NotLeading } from ${JSON.stringify(join(buildRoot, 'src/loops/runtime/while-leading.js'))};
    installLastResort({ command: 'agent', fallback: { info() {}, warn() {}, error() {} }, json: ${json} });
    setLastResortLogger(ioLogger(processIo(), { name: 'agent', cluster: 'member1' }, { format: ${JSON.stringify(format)} }));
    const keep = setInterval(() => undefined, 1000);
    ${fault}
  `;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
}

test('an exception thrown from a timer is logged through the command logger, subject first with its stack, and exits crashed', () => {
  const run = crash(
    `setTimeout(function beat() { throw new NotLeading('agent member1: no longer leads: no heartbeat written'); }, 5);`,
    'text',
  );
  assert.equal(run.status, exitCodes.crashed, run.stderr);
  const lines = run.stderr.trimEnd().split('\n');
  assert.match(
    lines[0]!,
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z agent member1: error: gitfleet agent: uncaught exception \(a bug in gitfleet; exiting 8\): agent member1: no longer leads/,
  );
  assert.ok(
    lines.slice(1).some((l) => /^ {2}at .*beat/.test(l)),
    run.stderr,
  );
  assert.doesNotMatch(run.stderr, /^Node\.js v|^\s*throw /m, "not Node's own report");
});

test('a rejection nothing awaited is one JSON error line with --log-format json, and exits crashed', () => {
  const run = crash(`void Promise.reject(new Error('lease store: the API server answered 500'));`, 'json');
  assert.equal(run.status, exitCodes.crashed, run.stderr);
  const lines = run.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, run.stderr);
  const record = JSON.parse(lines[0]!) as Record<string, unknown>;
  assert.equal(record.level, 'error');
  assert.equal(record.code, 'Crashed');
  assert.equal(record.cluster, 'member1');
  assert.match(
    String(record.message),
    /^gitfleet agent: unhandled promise rejection \(a bug in gitfleet; exiting 8\): lease store: the API server answered 500\n {2}at /,
  );
});

test('with --log-format json a process warning (MaxListenersExceededWarning) is a JSON warning record, not Node text', () => {
  const run = crash(
    `const { EventEmitter } = await import('node:events');
     const e = new EventEmitter();
     for (let i = 0; i < 11; i++) e.on('timeout', () => undefined);
     setTimeout(() => process.exit(0), 50);`,
    'json',
  );
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, run.stderr);
  const record = JSON.parse(lines[0]!) as Record<string, unknown>;
  assert.equal(record.level, 'warning');
  assert.equal(record.code, 'MaxListenersExceededWarning');
  assert.match(
    String(record.message),
    /^gitfleet agent: MaxListenersExceededWarning: Possible EventEmitter memory leak/,
  );
});
