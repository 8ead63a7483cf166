// Values crossing between JavaScript and a Lua state, the way Karmada's VM moves them
// (pkg/resourceinterpreter/customized/declarative/luavm/lua.go decodeValue, and gopher-json's
// encoder behind lua_convert.go):
//
// | JavaScript → Lua             | Lua → JavaScript                                            |
// |------------------------------|-------------------------------------------------------------|
// | map → table with string keys | table with string keys → map                                |
// | list → table 1..n (nulls dropped, as gopher-lua's Append drops nil) | table with keys 1..n → list |
// | integral number → integer    | number → number (NaN and infinities refused)                |
// | other number → float         | string, boolean → the same                                  |
// | null → nil (a map key is not set) | empty table → EMPTY_TABLE, settled later by settleEmptyTables |
// | string, boolean → the same   | mixed or sparse keys, functions, userdata → refused         |
//
// gopher-lua numbers are all float64; Lua 5.4 keeps integers apart, so integral numbers go in
// as integers, which keeps `tostring(3)` "3" as in gopher-lua.
import type { LuaWasm } from 'wasmoon';
import { LuaError } from './lua-error.js';

/** The marker of an empty Lua table: Karmada cannot tell `{}` from `[]` either (lua_convert.go). */
export const EMPTY_TABLE: unique symbol = Symbol('empty Lua table');

/** A value read back from Lua. */
export type LuaValue =
  null | boolean | number | string | typeof EMPTY_TABLE | LuaValue[] | { [key: string]: LuaValue };

const LUA_TNIL = 0;
const LUA_TBOOLEAN = 1;
const LUA_TNUMBER = 3;
const LUA_TSTRING = 4;
const LUA_TTABLE = 5;
const MAX_DEPTH = 200;

/** Pushes a JSON-like value onto the Lua stack. */
export function pushValue(lua: LuaWasm, L: number, value: unknown, depth = 0): void {
  if (depth > MAX_DEPTH)
    throw new LuaError('LuaValueNotConvertible', 'value is nested too deeply to pass to Lua');
  lua.luaL_checkstack(L, 4, null);
  if (value === null || value === undefined) lua.lua_pushnil(L);
  else if (typeof value === 'boolean') lua.lua_pushboolean(L, value ? 1 : 0);
  else if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) lua.lua_pushinteger(L, BigInt(value));
    else lua.lua_pushnumber(L, value);
  } else if (typeof value === 'string') lua.lua_pushstring(L, value);
  else if (Array.isArray(value)) {
    lua.lua_createtable(L, value.length, 0);
    let n = 0;
    for (const item of value) {
      if (item === null || item === undefined) continue;
      pushValue(lua, L, item, depth + 1);
      lua.lua_rawseti(L, -2, BigInt(++n));
    }
  } else if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    lua.lua_createtable(L, 0, entries.length);
    for (const [key, item] of entries) {
      if (item === null || item === undefined) continue;
      pushValue(lua, L, item, depth + 1);
      lua.lua_setfield(L, -2, key);
    }
  } else throw new LuaError('LuaValueNotConvertible', `a ${typeof value} cannot be passed to Lua`);
}

/** Returns the Lua value at a stack index as JSON-like data; throws an Error saying why it cannot be. */
export function readValue(lua: LuaWasm, L: number, index: number, depth = 0): LuaValue {
  const type = lua.lua_type(L, index);
  switch (type) {
    case LUA_TNIL:
      return null;
    case LUA_TBOOLEAN:
      return lua.lua_toboolean(L, index) !== 0;
    case LUA_TNUMBER: {
      const n = lua.lua_tonumberx(L, index, null);
      if (!Number.isFinite(n))
        throw new LuaError('LuaValueNotConvertible', `cannot encode the number ${n} to JSON`);
      return n;
    }
    case LUA_TSTRING:
      return lua.lua_tolstring(L, index, null);
    case LUA_TTABLE:
      if (depth > MAX_DEPTH)
        throw new LuaError('LuaValueNotConvertible', 'cannot encode recursively nested tables to JSON');
      return readTable(lua, L, lua.lua_absindex(L, index), depth);
    default:
      throw new LuaError('LuaValueNotConvertible', `cannot encode a ${lua.lua_typename(L, type)} to JSON`);
  }
}

function readTable(lua: LuaWasm, L: number, index: number, depth: number): LuaValue {
  lua.luaL_checkstack(L, 4, null);
  const numbered = new Map<number, LuaValue>();
  const named: Record<string, LuaValue> = {};
  let names = 0;
  lua.lua_pushnil(L);
  while (lua.lua_next(L, index) !== 0) {
    const keyType = lua.lua_type(L, -2);
    // Reading a number key with lua_tolstring would turn it into a string and break lua_next.
    if (keyType === LUA_TNUMBER)
      numbered.set(lua.lua_tonumberx(L, -2, null), readValue(lua, L, -1, depth + 1));
    else if (keyType === LUA_TSTRING) {
      named[lua.lua_tolstring(L, -2, null)] = readValue(lua, L, -1, depth + 1);
      names++;
    } else
      throw new LuaError(
        'LuaValueNotConvertible',
        'cannot encode a table with mixed or invalid key types to JSON',
      );
    lua.lua_settop(L, -2);
  }
  if (numbered.size === 0 && names === 0) return EMPTY_TABLE;
  if (numbered.size > 0 && names > 0)
    throw new LuaError(
      'LuaValueNotConvertible',
      'cannot encode a table with mixed or invalid key types to JSON',
    );
  if (names > 0) return named;
  const list: LuaValue[] = [];
  for (let i = 1; i <= numbered.size; i++) {
    if (!numbered.has(i))
      throw new LuaError('LuaValueNotConvertible', 'cannot encode a sparse array to JSON');
    list.push(numbered.get(i)!);
  }
  return list;
}
