// The Lua budgets of the commands that run a fleet's ResourceInterpreterCustomization scripts
// (hub, render, validate): how long one call may run, and how much Lua time one pass may spend
// in all (docs/resource-interpreter.md#budgets). The defaults are adapters/lua's: one second
// per call, as Karmada's, and two minutes per pass.
import type { LuaInterpreterOptions } from '../adapters/lua/lua-interpreter.js';
import { UsageError } from './usage-error.js';

/** `--lua-call-timeout` and `--lua-pass-budget`. */
export const luaFlags = {
  'lua-call-timeout': {
    type: 'duration',
    value: 'DURATION',
    default: '1s',
    help: 'how long one Lua call of a ResourceInterpreterCustomization may run before it is stopped',
  },
  'lua-pass-budget': {
    type: 'duration',
    value: 'DURATION',
    default: '2m',
    help: 'the Lua time one pass may spend in all; calls past it fail for their objects, which keep their last good state',
  },
} as const;

/** Returns the interpreter options of the two flags' values; throws UsageError for a zero duration. */
export function luaOptionsOf(values: {
  'lua-call-timeout': number;
  'lua-pass-budget': number;
}): LuaInterpreterOptions {
  const call = values['lua-call-timeout'];
  const pass = values['lua-pass-budget'];
  if (!(call > 0)) throw new UsageError('--lua-call-timeout must be above 0, like 1s or 500ms');
  if (!(pass > 0)) throw new UsageError('--lua-pass-budget must be above 0, like 2m or 30s');
  return { budget: { timeMs: call }, passTimeMs: pass };
}
