// The commands with ResourceInterpreterCustomizations: render divides a custom workload by its
// scripts; validate fails on a script that does not compile, as Karmada's admission webhook
// refuses it (pkg/webhook/resourceinterpretercustomization/helper.go checkCustomizationsRule).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { runCli } from './run-cli.js';

const repoRoot = join(new URL('.', import.meta.url).pathname, '../../..');
const example = join(repoRoot, 'examples/interpreter-fleet');

test.after(removeTempDirs);

function exampleCopy(): string {
  const dir = join(tempDir('interp-cli'), 'fleet');
  cpSync(example, dir, { recursive: true });
  return dir;
}

test('render divides the example WorkerPool 3:2 with its ConfigMap on both clusters.', async () => {
  const fleet = exampleCopy();
  const out = join(fleet, '..', 'out');
  const run = await runCli(['render', fleet, '--out', out]);
  assert.equal(run.code, 0, run.stderr);
  const pool = (cluster: string) =>
    readFileSync(join(out, cluster, 'shop/WorkerPool.example.com/order-workers.yaml'), 'utf8');
  assert.match(pool('us-workers'), /^ {2}workers: 3$/m);
  assert.match(pool('eu-workers'), /^ {2}workers: 2$/m);
  for (const cluster of ['us-workers', 'eu-workers'])
    assert.match(
      readFileSync(join(out, cluster, 'shop/ConfigMap/order-workers.yaml'), 'utf8'),
      /QUEUE: orders/,
    );
});

test('validate fails on a script that does not compile, naming the customization and the operation.', async () => {
  const fleet = exampleCopy();
  const path = join(fleet, 'interpreter/workerpool.yaml');
  writeFileSync(
    path,
    readFileSync(path, 'utf8').replace('function InterpretHealth(pool)', 'function InterpretHealth(pool'),
  );
  const run = await runCli(['validate', fleet]);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /ResourceInterpreterCustomization\/workerpool: InterpretHealth: the script does not compile: workerpool\/healthInterpretation:2: '\)' expected/,
  );
});

test('validate fails on a GetReplicas script returning -3, naming the object and the script.', async () => {
  const fleet = exampleCopy();
  const path = join(fleet, 'interpreter/workerpool.yaml');
  writeFileSync(
    path,
    readFileSync(path, 'utf8').replace('return pool.spec.workers or 0, requires', 'return -3, requires'),
  );
  const run = await runCli(['validate', fleet]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(
    run.stdout,
    /WorkerPool\/shop\/order-workers: ResourceInterpreterCustomization\/workerpool InterpretReplica \(GetReplicas\): replicas -3 is negative/,
  );
  // The pool's ConfigMap still follows it (only the pool is held at its last good state).
  assert.match(run.stdout, /us-workers {2}3 objects, 1 failed/);
});

test(
  'validate ends with an error on a GetReplicas script whose string.find backtracks without end.',
  { timeout: 60_000 },
  async () => {
    const fleet = exampleCopy();
    const path = join(fleet, 'interpreter/workerpool.yaml');
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(
        'return pool.spec.workers or 0, requires',
        'local s = "a"; for i = 1, 10 do s = s .. s end; string.find(s, ".-.-.-.-b"); return 1, requires',
      ),
    );
    const run = await runCli(['validate', fleet]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /WorkerPool\/shop\/order-workers: ResourceInterpreterCustomization\/workerpool InterpretReplica \(GetReplicas\): the script ran past its time budget of 1000 ms and was stopped/,
    );
  },
);

test('validate takes the Lua budgets from --lua-call-timeout and --lua-pass-budget.', async () => {
  const fleet = exampleCopy();
  const path = join(fleet, 'interpreter/workerpool.yaml');
  // About 0.3 s of Lua per ReviseReplica call: within the default second, past 100 ms.
  writeFileSync(
    path,
    readFileSync(path, 'utf8').replace(
      'pool.spec.workers = workers',
      'local x = 0 for i = 1, 8000000 do x = x + i end pool.spec.workers = workers',
    ),
  );
  const short = await runCli(['validate', fleet, '--lua-call-timeout', '100ms']);
  assert.equal(short.code, 1, short.stdout);
  assert.match(
    short.stdout + short.stderr,
    /WorkerPool\/shop\/order-workers: ResourceInterpreterCustomization\/workerpool ReviseReplica \(ReviseReplica\): the script ran past its time budget of 100 ms/,
  );
  const spent = await runCli(['validate', fleet, '--lua-pass-budget', '1ms']);
  assert.equal(spent.code, 1, spent.stdout);
  assert.match(
    spent.stdout + spent.stderr,
    /the pass's Lua time budget of 1 ms is spent, so the script was not run/,
  );
  const usage = await runCli(['validate', fleet, '--lua-call-timeout', 'soon']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--lua-call-timeout must be like 30s/);
});
