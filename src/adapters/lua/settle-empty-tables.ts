// An empty Lua table reads back as neither `{}` nor `[]`: Lua has one table type. Karmada
// settles each the same way (luavm/lua_convert.go convertEmptySliceToEmptyStructPartly), by
// looking at the objects the script was given (its references):
//
// | where the empty table is                                   | it becomes                 |
// |------------------------------------------------------------|----------------------------|
// | the result itself                                          | {} for an object result, [] for a list result |
// | at a path where a reference has an empty map               | {}                         |
// | else at a path where a reference has an empty list         | []                         |
// | anywhere else                                              | removed                    |
//
// A path is the chain of map keys; list indexes are left out, so `spec.rules[2].names` and
// `spec.rules[0].names` are one path, as in Karmada.
import { EMPTY_TABLE, type LuaValue } from './lua-values.js';

/** Returns the Lua result with every empty table settled (the table above). */
export function settleEmptyTables(
  value: LuaValue,
  opts: { root: 'object' | 'list'; references?: readonly unknown[] },
): unknown {
  if (value === EMPTY_TABLE) return opts.root === 'object' ? {} : [];
  const emptyMaps = new Set<string>();
  const emptyLists = new Set<string>();
  for (const reference of opts.references ?? []) collectEmpty(reference, '', emptyMaps, emptyLists);
  return settle(value, '', emptyMaps, emptyLists);
}

function collectEmpty(value: unknown, path: string, maps: Set<string>, lists: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectEmptyChild(item, path, maps, lists);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value))
      collectEmptyChild(item, `${path}\u0000${key}`, maps, lists);
  }
}

function collectEmptyChild(value: unknown, path: string, maps: Set<string>, lists: Set<string>): void {
  if (Array.isArray(value) && value.length === 0) lists.add(path);
  else if (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).length === 0
  )
    maps.add(path);
  else collectEmpty(value, path, maps, lists);
}

const REMOVED = Symbol('removed');

function settle(value: LuaValue, path: string, maps: Set<string>, lists: Set<string>): unknown {
  if (value === EMPTY_TABLE) return maps.has(path) ? {} : lists.has(path) ? [] : REMOVED;
  if (Array.isArray(value)) {
    return value.map((item) => settle(item, path, maps, lists)).filter((item) => item !== REMOVED);
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const settled = settle(item, `${path}\u0000${key}`, maps, lists);
      if (settled !== REMOVED) out[key] = settled;
    }
    return out;
  }
  return value;
}
