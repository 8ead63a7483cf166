// The agent's per-object report with InterpretHealth and InterpretStatus scripts (issue #27,
// point 8): the scripts run ahead in the Lua worker threads (prepareObjectRecords), so the
// agent's event loop (heartbeat, lease renewal) keeps turning while they run, and the records
// objectRecords then builds are what the scripts say. Ticks are counted, not timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLuaInterpreter } from '../../../src/adapters/lua/lua-interpreter.js';
import { LuaWorkerRuntime } from '../../../src/adapters/lua/lua-worker-runtime.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { objectRecords, prepareObjectRecords } from '../../../src/loops/agent/object-records.js';
import type { ObjectResult } from '../../../src/loops/agent/object-result.js';

const runtime = new LuaWorkerRuntime({ threads: 1 });
test.after(() => runtime.close());

// The runtime, counting the calls made synchronously (blocking the event loop).
let blocking = 0;
const counting = {
  call: (call: Parameters<LuaWorkerRuntime['call']>[0]) => {
    blocking++;
    return runtime.call(call);
  },
  callAsync: runtime.callAsync.bind(runtime),
  checkSyntax: runtime.checkSyntax.bind(runtime),
  parallelism: 1,
};

const busy = 'local x = 0 for i = 1, 2000000 do x = x + i end';

test('Slow health and status scripts run ahead while the event loop turns; the records say what they return.', async () => {
  const { interpreter } = await createLuaInterpreter(
    [
      {
        name: 'pool',
        target: { apiVersion: 'example.com/v1', kind: 'WorkerPool' },
        scripts: {
          InterpretHealth: `function InterpretHealth(o) ${busy} return o.status.ready end`,
          InterpretStatus: `function ReflectStatus(o) ${busy} return { ready = o.status.ready } end`,
        },
        source: { file: 'interpreter.yaml', index: 0 },
      },
    ],
    { runtime: counting },
  );
  const results: ObjectResult[] = Array.from({ length: 4 }, (_, i) => {
    const live: KubeObject = {
      apiVersion: 'example.com/v1',
      kind: 'WorkerPool',
      metadata: { name: `p${i}`, namespace: 'shop', resourceVersion: '1' },
      status: { ready: i % 2 === 0 },
    };
    const ref = { apiVersion: 'example.com/v1', kind: 'WorkerPool', namespace: 'shop', name: `p${i}` };
    return {
      ref,
      path: `shop/WorkerPool.example.com/p${i}.yaml`,
      digest: 'd',
      action: 'unchanged',
      applied: true,
      live,
    };
  });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 2);
  await prepareObjectRecords(results, interpreter);
  clearInterval(timer);
  assert.ok(ticks >= 3, `the timer fired ${ticks} times while the scripts ran`);
  const records = objectRecords(results, [], interpreter);
  assert.equal(blocking, 0, 'no script ran on the event loop');
  assert.deepEqual(
    records.map((r) => [r.health, r.status]),
    [
      ['Healthy', { ready: true }],
      ['Degraded', { ready: false }],
      ['Healthy', { ready: true }],
      ['Degraded', { ready: false }],
    ],
  );
});
