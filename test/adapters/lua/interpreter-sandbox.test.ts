// The Lua sandbox: a script that loops forever, allocates without bound, reaches for the OS,
// files or foreign code, or fails, gives one clear error naming the object, the customization
// and the operation, and the process carries on (the next call works). The refused functions
// follow Karmada's VM (luavm/lua.go setLib, pkg/util/lifted/lua/string_safe.go strRep,
// oslib_safe.go); the one-second default budget is RunScript's context timeout there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLuaInterpreter } from '../../../src/adapters/lua/lua-interpreter.js';
import { LuaRuntime } from '../../../src/adapters/lua/lua-runtime.js';
import type { InterpreterCustomization } from '../../../src/core/model/interpreter-customization.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';

const runtime = await LuaRuntime.create();

const widget: KubeObject = {
  apiVersion: 'example.io/v1',
  kind: 'Widget',
  metadata: { name: 'w1', namespace: 'shop' },
  spec: { replicas: 3 },
  status: { ready: true },
};

function healthCustomization(script: string): InterpreterCustomization {
  return {
    name: 'widget-health',
    target: { apiVersion: 'example.io/v1', kind: 'Widget' },
    scripts: { InterpretHealth: script },
    source: { file: 'interpreter.yaml', index: 0 },
  };
}

async function healthOf(script: string, budget = { timeMs: 300, memoryBytes: 8 * 1024 * 1024 }) {
  const { interpreter } = await createLuaInterpreter([healthCustomization(script)], { runtime, budget });
  return interpreter.interpretHealth(widget);
}

const subject =
  'Widget/shop/w1: ResourceInterpreterCustomization/widget-health InterpretHealth (InterpretHealth): ';

// The memory cases get a time budget no busy machine reaches, so only the memory budget can stop them.
const memoryOnly = { timeMs: 120_000, memoryBytes: 8 * 1024 * 1024 };

const cases: { name: string; script: string; want: RegExp; budget?: typeof memoryOnly }[] = [
  {
    name: 'An infinite loop is stopped at its time budget.',
    script: 'function InterpretHealth(o) while true do end end',
    want: /time budget of 300 ms/,
  },
  {
    name: 'A loop that catches the budget error with pcall is stopped all the same.',
    script: 'function InterpretHealth(o) while true do pcall(function() while true do end end) end end',
    want: /time budget of 300 ms/,
  },
  {
    name: 'A huge allocation is stopped at its memory budget.',
    script: 'function InterpretHealth(o) local t = {} for i = 1, 1e9 do t[i] = i end return true end',
    want: /memory budget of 8 MiB/,
    budget: memoryOnly,
  },
  {
    name: 'A string doubled without end is stopped at its memory budget.',
    script: 'function InterpretHealth(o) local s = "x" while true do s = s .. s end end',
    want: /memory budget of 8 MiB/,
    budget: memoryOnly,
  },
  {
    name: 'os.execute does not exist.',
    script: 'function InterpretHealth(o) os.execute("touch /tmp/gitfleet-pwned") return true end',
    want: /attempt to call a nil value \(field 'execute'\)/,
  },
  {
    name: 'io.open does not exist.',
    script: 'function InterpretHealth(o) return io.open("/etc/passwd") ~= nil end',
    want: /attempt to index a nil value \(global 'io'\)/,
  },
  {
    name: 'load, dofile and require of anything but kube are refused.',
    script: 'function InterpretHealth(o) return load("return true")() end',
    want: /call function load is not supported/,
  },
  {
    name: 'require of a module other than kube is refused.',
    script: 'function InterpretHealth(o) return require("os") end',
    want: /module 'os' not found: only 'kube' can be required/,
  },
  {
    name: 'string.rep is refused, as in Karmada.',
    script: 'function InterpretHealth(o) return #string.rep("x", 10) > 0 end',
    want: /call function string.rep is not supported/,
  },
  {
    name: 'A runtime error is reported with the line of the script.',
    script: 'function InterpretHealth(o)\n  return o.spec.missing.field\nend',
    want: /widget-health\/healthInterpretation:2: attempt to index a nil value \(field 'missing'\)/,
  },
  {
    name: 'A result of the wrong type is an error.',
    script: 'function InterpretHealth(o) return "yes" end',
    want: /result type string is not bool/,
  },
  {
    name: 'A script without the function is an error.',
    script: 'function Healthy(o) return true end',
    want: /the script defines no function InterpretHealth/,
  },
];

for (const c of cases) {
  test(c.name, async () => {
    const outcome = await healthOf(c.script, c.budget);
    assert.ok(outcome && !outcome.ok, 'the call fails');
    assert.ok(outcome.error.startsWith(subject), outcome.error);
    assert.match(outcome.error, c.want);
    const after = await healthOf('function InterpretHealth(o) return o.status.ready end');
    assert.deepEqual(after, { ok: true, value: true }, 'the next call works');
  });
}

test('A script that does not compile is reported when the interpreter is created.', async () => {
  const { problems } = await createLuaInterpreter(
    [healthCustomization('function InterpretHealth(o) return end end')],
    {
      runtime,
    },
  );
  assert.equal(problems.length, 1);
  assert.equal(problems[0]!.customization, 'widget-health');
  assert.equal(problems[0]!.operation, 'InterpretHealth');
  assert.match(problems[0]!.message, /widget-health\/healthInterpretation:1: <eof> expected near 'end'/);
});

test('Globals a script sets do not survive into the next call.', async () => {
  const script = 'function InterpretHealth(o) seen = (seen or 0) + 1 return seen == 1 end';
  assert.deepEqual(await healthOf(script), { ok: true, value: true });
  assert.deepEqual(await healthOf(script), { ok: true, value: true });
});

test('Integral numbers stay integers, as gopher-lua prints them.', async () => {
  const outcome = await healthOf('function InterpretHealth(o) return tostring(o.spec.replicas) == "3" end');
  assert.deepEqual(outcome, { ok: true, value: true });
});

test('pairs walks a table in the same order every time.', async () => {
  const customization: InterpreterCustomization = {
    ...healthCustomization(''),
    scripts: {
      InterpretStatus:
        'function ReflectStatus(o) local keys = {} for k in pairs(o.spec.map) do table.insert(keys, k) end return { keys = keys } end',
    },
  };
  const { interpreter } = await createLuaInterpreter([customization], { runtime });
  const map = Object.fromEntries(['delta', 'alpha', 'charlie', 'bravo', 'echo'].map((k) => [k, 1]));
  const outcome = interpreter.reflectStatus({ ...widget, spec: { map } });
  assert.deepEqual(outcome, { ok: true, value: { keys: ['alpha', 'bravo', 'charlie', 'delta', 'echo'] } });
});
