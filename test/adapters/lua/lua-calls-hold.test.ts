// LuaCalls while holding (lua-calls.ts): a call not made ahead is kept and fails at once, never
// run synchronously; prefetchHeld runs the kept calls (each once) off the caller's thread; the
// same calls then take their results, as often as they are asked for in the pass; a new pass
// starts with nothing made and nothing held. The runner is a counting fake behind LuaRunner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LuaCalls } from '../../../src/adapters/lua/lua-calls.js';
import type { LuaCall, LuaCallOutcome } from '../../../src/adapters/lua/lua-runtime.js';
import type { LuaRunner } from '../../../src/adapters/lua/lua-worker-runtime.js';

function countingRunner(): LuaRunner & { sync: number; async: number } {
  const answer = (call: LuaCall): LuaCallOutcome => ({ ok: true, values: [call.args[0] as number] });
  const runner = {
    sync: 0,
    async: 0,
    parallelism: 1,
    call(call: LuaCall) {
      runner.sync++;
      return answer(call);
    },
    async callAsync(call: LuaCall) {
      runner.async++;
      return answer(call);
    },
    checkSyntax: () => undefined,
  };
  return runner;
}

const call = (n: number): LuaCall => ({
  script: 'function F(n) return n end',
  chunkName: '=t',
  functionName: 'F',
  args: [n],
  results: 1,
  budget: { timeMs: 1000, memoryBytes: 1 << 20 },
});

test('held calls fail at once, run ahead once each, then serve every later ask of the pass', async () => {
  const runner = countingRunner();
  const calls = new LuaCalls(runner, 60_000);
  calls.startPass();
  calls.hold();
  const held = [calls.run(call(1)), calls.run(call(2)), calls.run(call(1))];
  assert.ok(held.every((o) => !o.ok));
  assert.equal(runner.sync + runner.async, 0, 'nothing ran while holding');
  assert.equal(await calls.prefetchHeld(), 2, 'two distinct calls were kept');
  assert.equal(runner.async, 2);
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(calls.run(call(1)), { ok: true, values: [1] });
    assert.deepEqual(calls.run(call(2)), { ok: true, values: [2] });
  }
  assert.equal(runner.sync, 0, 'no call ran synchronously');
  assert.equal(await calls.prefetchHeld(), 0, 'holding ended with prefetchHeld');
  calls.startPass();
  assert.deepEqual(calls.run(call(1)), { ok: true, values: [1] });
  assert.equal(runner.sync, 1, 'a new pass runs the call again (not holding: synchronously)');
});
