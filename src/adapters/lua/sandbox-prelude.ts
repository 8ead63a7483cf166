/**
 * The Lua chunk that closes a fresh state before any customization script runs in it. The
 * state has only the base, table, string and math libraries and a cut-down os (time and date);
 * no io, no os.execute or os.getenv, no package loaders, no debug, no coroutines. The chunk gets
 * the kube library table and the budget check as its arguments.
 *
 * What stays and what goes follows Karmada's VM (luavm/lua.go setLib and the lifted safe
 * libraries in pkg/util/lifted/lua): the same functions are refused with an error when called;
 * `require` knows only "kube"; string.rep is refused (a one-call memory bomb). Beyond Karmada:
 * `print` and `warn` do nothing (a hub's output is not a script's), math.random and
 * math.randomseed are refused (a render must be deterministic), string.dump is removed, and
 * pcall/xpcall pass a budget error on instead of swallowing it, so a script cannot catch its
 * way past its time or memory budget. For scripts written against gopher-lua (Lua 5.1), the 5.1
 * names Lua 5.4 dropped are put back: unpack, table.getn, math.pow, math.mod, math.log10,
 * string.gfind.
 *
 * `pairs` walks a table in a fixed order: numbers ascending, then strings ascending, then the
 * rest. Lua 5.4 seeds its string hashes per state (from the clock), so its own pairs order
 * changes from run to run, and a render must not; gopher-lua walks in insertion order, which
 * Lua 5.4 does not record, so a script whose output depends on pairs order (rather than on
 * ipairs or sorting) can order lists differently than in Karmada.
 */
export const SANDBOX_PRELUDE = String.raw`
local kube, overBudget = ...
local refuse = function(name)
  return function()
    error("call function " .. name .. " is not supported in gitfleet's resource interpreter", 2)
  end
end
for _, name in ipairs({ "collectgarbage", "dofile", "getfenv", "getmetatable", "load", "loadfile",
    "loadstring", "rawequal", "rawget", "rawset", "rawlen", "setfenv", "setmetatable", "module",
    "newproxy" }) do
  _G[name] = refuse(name)
end
os = { time = os.time, date = os.date }
print = function() end
warn = function() end
local rawPcall, rawXpcall, pack, unpackArgs = pcall, xpcall, table.pack, table.unpack
local function passBudget(results)
  if not results[1] and overBudget() then error(results[2], 0) end
  return unpackArgs(results, 1, results.n)
end
pcall = function(f, ...) return passBudget(pack(rawPcall(f, ...))) end
xpcall = function(f, handler, ...) return passBudget(pack(rawXpcall(f, handler, ...))) end
string.rep = refuse("string.rep")
string.dump = nil
string.gfind = string.gmatch
math.random = refuse("math.random")
math.randomseed = refuse("math.randomseed")
math.pow = function(x, y) return x ^ y end
math.mod = math.fmod
math.log10 = function(x) return math.log(x, 10) end
unpack = table.unpack
table.getn = function(t) return #t end
local rawNext, sortList, typeOf = next, table.sort, type
local typeRank = { number = 1, string = 2, boolean = 3 }
local function before(a, b)
  local ta, tb = typeOf(a), typeOf(b)
  if ta ~= tb then return (typeRank[ta] or 4) < (typeRank[tb] or 4) end
  if ta == "number" or ta == "string" then return a < b end
  if ta == "boolean" then return (not a) and b end
  return false
end
pairs = function(t)
  local keys, n = {}, 0
  for k in rawNext, t do n = n + 1; keys[n] = k end
  sortList(keys, before)
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k == nil then return nil end
    return k, t[k]
  end, t, nil
end
local loaded = { kube = kube }
require = function(name)
  local module = loaded[name]
  if module == nil then error("module '" .. tostring(name) .. "' not found: only 'kube' can be required", 2) end
  return module
end
`;
