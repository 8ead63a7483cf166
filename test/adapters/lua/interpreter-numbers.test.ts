// Numbers a script returns where Kubernetes types the field as int32 (a workload's replicas):
// anything but a whole number from 0 to 2^31-1 is an error for that object, naming it, so the
// hub keeps the object's last good state rather than dividing a nonsense count (-3 and 2^31
// wrapped to 0 replicas and the workload left every cluster). Karmada's GetReplicas casts the
// Lua number to int32 (luavm/lua.go ConvertLuaResultToInt); gitfleet refuses instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLuaInterpreter } from '../../../src/adapters/lua/lua-interpreter.js';
import { LuaRuntime } from '../../../src/adapters/lua/lua-runtime.js';
import type { InterpreterCustomization } from '../../../src/core/model/interpreter-customization.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';

const runtime = await LuaRuntime.create();

const pool: KubeObject = {
  apiVersion: 'example.com/v1',
  kind: 'WorkerPool',
  metadata: { name: 'orders', namespace: 'shop' },
  spec: { workers: 5 },
};

function customization(scripts: InterpreterCustomization['scripts']): InterpreterCustomization {
  return {
    name: 'pool',
    target: { apiVersion: 'example.com/v1', kind: 'WorkerPool' },
    scripts,
    source: { file: 'interpreter.yaml', index: 0 },
  };
}

const bad: { given: string; want: RegExp }[] = [
  { given: '-3', want: /replicas -3 is negative/ },
  { given: '2^31', want: /replicas 2147483648 is more than 2147483647/ },
  { given: '1e18', want: /replicas 1000000000000000000 is more than 2147483647/ },
  { given: '1.5', want: /replicas 1\.5 is not a whole number/ },
  { given: '0/0', want: /NaN/ },
  { given: '1/0', want: /Infinity/ },
];

for (const c of bad) {
  test(`GetReplicas returning ${c.given} is an error naming the object and the script.`, async () => {
    const { interpreter } = await createLuaInterpreter(
      [customization({ InterpretReplica: `function GetReplicas(o) return ${c.given} end` })],
      { runtime },
    );
    const outcome = interpreter.getReplicas(pool);
    assert.ok(outcome && !outcome.ok, JSON.stringify(outcome));
    assert.ok(
      outcome.error.startsWith(
        'WorkerPool/shop/orders: ResourceInterpreterCustomization/pool InterpretReplica (GetReplicas): ',
      ),
      outcome.error,
    );
    assert.match(outcome.error, c.want);
  });
}

test('GetReplicas returning 0, 7 or 2^31-1 (also as a float 7.0) is taken as it is.', async () => {
  for (const [given, want] of [
    ['0', 0],
    ['7', 7],
    ['7.0', 7],
    ['2^31-1', 2147483647],
  ] as const) {
    const { interpreter } = await createLuaInterpreter(
      [customization({ InterpretReplica: `function GetReplicas(o) return ${given} end` })],
      { runtime },
    );
    assert.deepEqual(interpreter.getReplicas(pool), { ok: true, value: { replicas: want } }, given);
  }
});

for (const given of ['-1', '2^31', '2.5']) {
  test(`ReviseReplica setting spec.replicas to ${given} is an error naming the object.`, async () => {
    const { interpreter } = await createLuaInterpreter(
      [
        customization({
          ReviseReplica: `function ReviseReplica(o, n) o.spec.replicas = ${given} return o end`,
        }),
      ],
      { runtime },
    );
    const outcome = interpreter.reviseReplica(pool, 2);
    assert.ok(outcome && !outcome.ok, JSON.stringify(outcome));
    assert.ok(
      outcome.error.startsWith('WorkerPool/shop/orders: ResourceInterpreterCustomization/pool ReviseReplica'),
    );
    assert.match(outcome.error, /spec\.replicas /);
  });
}
