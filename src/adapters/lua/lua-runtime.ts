// Runs customization scripts in Lua 5.4 compiled to WebAssembly (wasmoon), through Lua's C API
// so that every value crossing over is converted the way Karmada's gopher-lua VM converts it
// (lua-values.ts). Each call gets a fresh Lua state, closed when the call returns: no global a
// script sets survives into another call, and the state's memory is counted from zero.
//
// Budgets, per call: time (an instruction-count hook checks the clock every 1,000 VM
// instructions and raises an error once the deadline has passed) and memory (the state's
// allocator refuses to grow past the budget, which Lua reports as "not enough memory"). The
// sandbox (sandbox-prelude.ts) keeps scripts away from files, the OS, the network and foreign
// code. Karmada gives a call one second (luavm/lua.go RunScript) and no memory limit. The hook
// cannot fire inside a C function (a backtracking string.find): a process runs this runtime in
// worker threads (lua-worker-runtime.ts), which stop such a call from outside.
import { LuaFactory, type LuaWasm } from 'wasmoon';
import { kubeLibrary, type KubeFunction } from './kube-library.js';
import { EMPTY_TABLE, pushValue, readValue, type LuaValue } from './lua-values.js';
import { SANDBOX_PRELUDE } from './sandbox-prelude.js';
import { LuaError } from './lua-error.js';

export { EMPTY_TABLE, type LuaValue } from './lua-values.js';

/** What one call may use. */
export interface LuaBudget {
  /** Wall-clock milliseconds for loading the script and running the function. */
  timeMs: number;
  /** Bytes the Lua state may hold at once, libraries, arguments and results included. */
  memoryBytes: number;
}

/** One call of a global function a script defines. */
export interface LuaCall {
  script: string;
  /** Names the script in Lua's error messages (`<chunkName>:3: attempt to index a nil value`). */
  chunkName: string;
  functionName: string;
  args: readonly unknown[];
  /** How many results to read back (missing ones read as null). */
  results: number;
  budget: LuaBudget;
}

export type LuaFailure =
  'syntax' | 'missing-function' | 'runtime' | 'time-budget' | 'memory-budget' | 'pass-budget';

export type LuaCallOutcome =
  { ok: true; values: LuaValue[] } | { ok: false; failure: LuaFailure; message: string };

const LUA_OK = 0;
const LUA_TFUNCTION = 6;
const LUA_MASKCOUNT = 8;
const HOOK_EVERY = 1000;
const TIME_BUDGET_MESSAGE = 'time budget exceeded';

interface MemoryAccount {
  used: number;
  max: number;
  refused: boolean;
}

/** The per-call state the shared C callbacks read (calls run one at a time: they are synchronous). */
interface CallState {
  deadline: number;
  timedOut: boolean;
  account: MemoryAccount;
}

/** A Lua runtime: load once (async), then call scripts synchronously. */
export class LuaRuntime {
  private readonly accounts = new Map<number, MemoryAccount>();
  private current: CallState | undefined;
  private nextId = 1;
  private readonly allocator: number;
  private readonly hook: number;
  private readonly overBudget: number;
  private readonly kube: { name: string; pointer: number }[];

  private constructor(private readonly lua: LuaWasm) {
    const module = lua.module;
    this.allocator = module.addFunction(
      (ud: number, pointer: number, oldSize: number, newSize: number) =>
        this.allocate(ud, pointer, oldSize, newSize),
      'iiiii',
    );
    this.hook = module.addFunction((L: number) => this.checkClock(L), 'vii');
    this.overBudget = module.addFunction((L: number) => {
      const state = this.current;
      lua.lua_pushboolean(L, state !== undefined && (state.timedOut || state.account.refused) ? 1 : 0);
      return 1;
    }, 'ii');
    this.kube = Object.entries(kubeLibrary).map(([name, fn]) => ({
      name,
      pointer: module.addFunction((L: number) => this.runKube(L, name, fn), 'ii'),
    }));
  }

  /** Returns a runtime with the WebAssembly module loaded. */
  static async create(): Promise<LuaRuntime> {
    return new LuaRuntime(await new LuaFactory().getLuaModule());
  }

  /** Returns why a script does not compile, or undefined when it does. */
  checkSyntax(script: string, chunkName: string): string | undefined {
    return this.withState({ timeMs: 1000, memoryBytes: 16 * 1024 * 1024 }, (L) => {
      const status = this.loadChunk(L, script, chunkName);
      return status === LUA_OK ? undefined : this.errorText(L);
    });
  }

  /** Runs the script, then calls its function with the arguments; never throws for the script's faults. */
  call(call: LuaCall): LuaCallOutcome {
    return this.withState(call.budget, (L) => {
      const lua = this.lua;
      if (this.loadChunk(L, call.script, call.chunkName) !== LUA_OK)
        return { ok: false, failure: 'syntax', message: this.errorText(L) };
      if (lua.lua_pcallk(L, 0, 0, 0, 0, null) !== LUA_OK) return this.failed(L);
      if (lua.lua_getglobal(L, call.functionName) !== LUA_TFUNCTION) {
        return {
          ok: false,
          failure: 'missing-function',
          message: `the script defines no function ${call.functionName}`,
        };
      }
      try {
        for (const arg of call.args) pushValue(lua, L, arg);
      } catch (error) {
        return { ok: false, failure: 'runtime', message: (error as Error).message };
      }
      if (lua.lua_pcallk(L, call.args.length, call.results, 0, 0, null) !== LUA_OK) return this.failed(L);
      const values: LuaValue[] = [];
      try {
        for (let i = 1; i <= call.results; i++) values.push(readValue(lua, L, i));
      } catch (error) {
        return { ok: false, failure: 'runtime', message: `its result: ${(error as Error).message}` };
      }
      return { ok: true, values };
    });
  }

  private withState<T>(budget: LuaBudget, use: (L: number) => T): T {
    const lua = this.lua;
    const id = this.nextId++;
    const account: MemoryAccount = { used: 0, max: budget.memoryBytes, refused: false };
    this.accounts.set(id, account);
    const state: CallState = { deadline: Date.now() + budget.timeMs, timedOut: false, account };
    const outer = this.current;
    this.current = state;
    const L = lua.lua_newstate(this.allocator, id);
    try {
      if (!L)
        throw new LuaError('LuaStateUnavailable', 'Lua: could not create a state within the memory budget');
      this.openSandbox(L);
      return use(L);
    } finally {
      if (L) lua.lua_close(L);
      this.accounts.delete(id);
      this.current = outer;
    }
  }

  private openSandbox(L: number): void {
    const lua = this.lua;
    lua.luaopen_base(L);
    lua.lua_settop(L, 0);
    for (const [name, open] of [
      ['table', lua.luaopen_table],
      ['string', lua.luaopen_string],
      ['math', lua.luaopen_math],
      ['os', lua.luaopen_os],
    ] as const) {
      open.call(lua, L);
      lua.lua_setglobal(L, name);
    }
    lua.lua_sethook(L, this.hook, LUA_MASKCOUNT, HOOK_EVERY);
    if (this.loadChunk(L, SANDBOX_PRELUDE, '=sandbox') !== LUA_OK)
      throw new LuaError('LuaSandboxFailed', `Lua sandbox: ${this.errorText(L)}`);
    lua.lua_createtable(L, 0, this.kube.length);
    for (const { name, pointer } of this.kube) {
      lua.lua_pushcclosure(L, pointer, 0);
      lua.lua_setfield(L, -2, name);
    }
    lua.lua_pushcclosure(L, this.overBudget, 0);
    if (lua.lua_pcallk(L, 2, 0, 0, 0, null) !== LUA_OK)
      throw new LuaError('LuaSandboxFailed', `Lua sandbox: ${this.errorText(L)}`);
  }

  // Text chunks only ('t'): precompiled bytecode can break out of the VM's checks.
  private loadChunk(L: number, text: string, chunkName: string): number {
    const module = this.lua.module;
    const size = module.lengthBytesUTF8(text);
    const buffer = module._malloc(size + 1);
    try {
      module.stringToUTF8(text, buffer, size + 1);
      return this.lua.luaL_loadbufferx(L, buffer, size, chunkName, 't');
    } finally {
      module._free(buffer);
    }
  }

  private failed(L: number): LuaCallOutcome {
    const message = this.errorText(L);
    const state = this.current!;
    if (state.timedOut) return { ok: false, failure: 'time-budget', message: TIME_BUDGET_MESSAGE };
    if (state.account.refused)
      return { ok: false, failure: 'memory-budget', message: 'memory budget exceeded' };
    return { ok: false, failure: 'runtime', message };
  }

  private errorText(L: number): string {
    const text = this.lua.luaL_tolstring(L, -1, null);
    this.lua.lua_settop(L, 0);
    return text;
  }

  private allocate(ud: number, pointer: number, oldSize: number, newSize: number): number {
    const module = this.lua.module;
    const account = this.accounts.get(ud);
    const old = pointer ? oldSize : 0;
    if (newSize === 0) {
      if (pointer) module._free(pointer);
      if (account) account.used -= old;
      return 0;
    }
    if (account && newSize > old && account.used + newSize - old > account.max) {
      account.refused = true;
      return 0;
    }
    const moved = module._realloc(pointer, newSize);
    if (moved && account) account.used += newSize - old;
    return moved;
  }

  private checkClock(L: number): void {
    const state = this.current;
    if (state === undefined || Date.now() <= state.deadline) return;
    state.timedOut = true;
    this.lua.lua_pushstring(L, TIME_BUDGET_MESSAGE);
    this.lua.lua_error(L);
  }

  // A kube function's JavaScript faults become Lua errors; a JavaScript exception must never
  // unwind through the Lua VM.
  private runKube(L: number, name: string, fn: KubeFunction): number {
    let results: unknown[];
    try {
      const args: LuaValue[] = [];
      const top = this.lua.lua_gettop(L);
      for (let i = 1; i <= top; i++) args.push(readValue(this.lua, L, i));
      results = fn(args);
      this.lua.lua_settop(L, 0);
      for (const result of results) pushValue(this.lua, L, result === EMPTY_TABLE ? {} : result);
    } catch (error) {
      this.lua.lua_settop(L, 0);
      this.lua.lua_pushstring(L, `kube.${name}: ${(error as Error).message}`);
      return this.lua.lua_error(L);
    }
    return results.length;
  }
}
