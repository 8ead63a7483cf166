// Budgets the instruction hook alone cannot keep, and the event loop while scripts run
// (issue #27, points 7 and 8):
// - a pattern that backtracks inside string.find never returns to the VM, so the hook never
//   fires: the call is stopped from outside, by the worker thread's deadline, and is an error
//   naming the object and the script, both when the call is made synchronously and ahead;
// - the Lua time of a whole pass is bounded: calls past it fail, naming the object;
// - while the interpretation stage's scripts run, the process's event loop keeps turning
//   (counted as timer ticks, not timed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InterpreterSession } from '../../../src/adapters/lua/interpreter-session.js';
import { createLuaInterpreter } from '../../../src/adapters/lua/lua-interpreter.js';
import { LuaWorkerRuntime } from '../../../src/adapters/lua/lua-worker-runtime.js';
import type { InterpreterCustomization } from '../../../src/core/model/interpreter-customization.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { clusterDoc, fileOf, mustLoad, policyDoc } from '../../core/load/documents.js';

const runtime = new LuaWorkerRuntime({ threads: 1 });
test.after(() => runtime.close());

const BACKTRACK = 'local s = "a" for i = 1, 10 do s = s .. s end string.find(s, ".-.-.-.-b") return 1';

const pool = (name: string): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'WorkerPool',
  metadata: { name, namespace: 'shop' },
  spec: { workers: 2 },
});

function replicasCustomization(body: string): InterpreterCustomization {
  return {
    name: 'pool',
    target: { apiVersion: 'example.com/v1', kind: 'WorkerPool' },
    scripts: { InterpretReplica: `function GetReplicas(o) ${body} end` },
    source: { file: 'interpreter.yaml', index: 0 },
  };
}

const subject = (name: string) =>
  `WorkerPool/shop/${name}: ResourceInterpreterCustomization/pool InterpretReplica (GetReplicas): `;

test('A backtracking string.find ends at its time budget as an error naming the script (called synchronously).', async () => {
  const { interpreter } = await createLuaInterpreter([replicasCustomization(BACKTRACK)], {
    runtime,
    budget: { timeMs: 200 },
  });
  const outcome = interpreter.getReplicas(pool('p1'));
  assert.ok(outcome && !outcome.ok, JSON.stringify(outcome));
  assert.ok(outcome.error.startsWith(subject('p1')), outcome.error);
  assert.match(outcome.error, /time budget of 200 ms/);
  const next = await createLuaInterpreter([replicasCustomization('return o.spec.workers')], { runtime });
  assert.deepEqual(
    next.interpreter.getReplicas(pool('p1')),
    { ok: true, value: { replicas: 2 } },
    'the next call works',
  );
});

test('A backtracking string.find run ahead ends at its time budget as the same error.', async () => {
  const { interpreter } = await createLuaInterpreter([replicasCustomization(BACKTRACK)], {
    runtime,
    budget: { timeMs: 200 },
  });
  await interpreter.prepare([{ operation: 'InterpretReplica', object: pool('p2') }]);
  const outcome = interpreter.getReplicas(pool('p2'));
  assert.ok(outcome && !outcome.ok, JSON.stringify(outcome));
  assert.ok(outcome.error.startsWith(subject('p2')), outcome.error);
  assert.match(outcome.error, /time budget of 200 ms/);
});

test('Past the pass budget the scripts are not run: the objects they were for are errors; a new pass runs them again.', async () => {
  const { interpreter } = await createLuaInterpreter([replicasCustomization('while true do end')], {
    runtime,
    budget: { timeMs: 100 },
    passTimeMs: 250,
  });
  interpreter.startPass();
  const errors = ['a', 'b', 'c', 'd', 'e'].map((name) => {
    const outcome = interpreter.getReplicas(pool(name));
    assert.ok(outcome && !outcome.ok);
    return outcome.error;
  });
  assert.match(errors[0]!, /time budget of 100 ms/);
  assert.ok(errors.at(-1)!.startsWith(subject('e')), errors.at(-1));
  assert.match(errors.at(-1)!, /the pass's Lua time budget of 250 ms is spent, so the script was not run/);
  interpreter.startPass();
  assert.match((interpreter.getReplicas(pool('f')) as { error: string }).error, /time budget of 100 ms/);
});

function fleetOf(names: string[], script: string) {
  const customization = {
    apiVersion: 'config.karmada.io/v1alpha1',
    kind: 'ResourceInterpreterCustomization',
    metadata: { name: 'pool' },
    spec: {
      target: { apiVersion: 'example.com/v1', kind: 'WorkerPool' },
      customizations: { replicaResource: { luaScript: script } },
    },
  };
  const policy = policyDoc(
    'PropagationPolicy',
    'pools',
    {
      resourceSelectors: [{ apiVersion: 'example.com/v1', kind: 'WorkerPool' }],
      placement: { clusterAffinity: { clusterNames: ['m1'] } },
    },
    'shop',
  );
  return mustLoad([
    fileOf('clusters.yaml', clusterDoc('m1')),
    fileOf('interpreter.yaml', customization),
    fileOf('policies.yaml', policy),
    fileOf('apps/pools.yaml', ...names.map(pool)),
  ]);
}

test('While slow GetReplicas scripts run, the event loop keeps turning.', async () => {
  const slow =
    'function GetReplicas(o) local x = 0 for i = 1, 2000000 do x = x + i end return o.spec.workers end';
  // Budgets a loaded machine cannot reach first: what is tested is the event loop, not the budget.
  const session = new InterpreterSession({ runtime, budget: { timeMs: 120_000 }, passTimeMs: 600_000 });
  await session.attach(fleetOf(['warm'], slow));
  const names = Array.from({ length: 8 }, (_, i) => `pool-${i}`);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 2);
  const { fleet } = await session.attach(fleetOf(names, slow));
  clearInterval(timer);
  const interpreted = fleet.templates.filter((t) => t.interpreted?.replicas?.replicas === 2);
  assert.equal(interpreted.length, 8, 'every pool interpreted');
  assert.ok(ticks >= 3, `the timer fired ${ticks} times while the scripts ran`);
});

test('The syntax checks of new customizations leave the event loop turning, while the first waits for its thread to load.', async () => {
  const fresh = new LuaWorkerRuntime({ threads: 1 });
  try {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const { problems } = await createLuaInterpreter([replicasCustomization('return o.spec.workers')], {
      runtime: fresh,
    });
    clearInterval(timer);
    assert.deepEqual(problems, []);
    assert.ok(ticks > 0, `the timer fired ${ticks} times during the checks`);
  } finally {
    fresh.close();
  }
});
