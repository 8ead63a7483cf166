// The interpreter's calls into Lua, with the budget of a whole pass and the calls made ahead.
//
// A pass (a hub pass, a validate or render, an agent pass) may spend `passTimeMs` in Lua, all
// its calls together; a call once that is spent is not run and fails, so the object it was for
// is an error that pass (its last good state kept) and the pass ends instead of running for
// ever on a fleet of slow scripts. Calls made ahead (`prefetch`) run asynchronously in worker
// threads while the event loop keeps answering; the synchronous call the core stage makes later
// with the same arguments takes the result made ahead instead of running the script again.
// Where the caller cannot tell the calls ahead (ReviseReplica: the render decides the replicas),
// it holds the calls (`hold`): a call not made ahead is then kept and fails instead of blocking;
// `prefetchHeld` runs the kept ones ahead, and the caller runs its pure stage again.
import type { LuaCall, LuaCallOutcome } from './lua-runtime.js';
import type { LuaRunner } from './lua-worker-runtime.js';

/** Lua calls with a pass budget and results made ahead. */
export class LuaCalls {
  private spent = 0;
  private readonly ready = new Map<string, LuaCallOutcome>();
  private held: Map<string, LuaCall> | undefined;

  constructor(
    private readonly runner: LuaRunner,
    private readonly passTimeMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts a new pass: its budget whole again, and what was made ahead for the last one dropped. */
  startPass(): void {
    this.spent = 0;
    this.ready.clear();
    this.held = undefined;
  }

  /**
   * Returns the call's outcome: made ahead (kept for the pass: a stage run again, or two copies
   * with one call, find it too), held while holding, or run now (blocking) while the pass has budget.
   */
  run(call: LuaCall): LuaCallOutcome {
    const key = keyOf(call);
    const made = this.ready.get(key);
    if (made !== undefined) return made;
    if (this.held !== undefined) {
      this.held.set(key, call);
      return HELD;
    }
    if (this.spent >= this.passTimeMs) return this.passSpent();
    const start = this.now();
    try {
      return this.runner.call(call);
    } finally {
      this.spent += this.now() - start;
    }
  }

  /** Starts holding: until prefetchHeld, a call not made ahead is kept and fails at once. */
  hold(): void {
    this.held ??= new Map();
  }

  /** Stops holding and runs the kept calls ahead (see prefetch); returns how many there were. */
  async prefetchHeld(): Promise<number> {
    const calls = [...(this.held ?? new Map<string, LuaCall>()).values()];
    this.held = undefined;
    await this.prefetch(calls);
    return calls.length;
  }

  /** Runs the calls ahead, asynchronously, for `run` to take (nothing when the runner cannot). */
  async prefetch(calls: readonly LuaCall[]): Promise<void> {
    const callAsync = this.runner.callAsync?.bind(this.runner);
    if (callAsync === undefined || calls.length === 0) return;
    const pending = [...new Map(calls.map((c) => [keyOf(c), c])).entries()].filter(
      ([key]) => !this.ready.has(key),
    );
    const lane = async (): Promise<void> => {
      for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
        const [key, call] = next;
        if (this.spent >= this.passTimeMs) {
          this.ready.set(key, this.passSpent());
          continue;
        }
        const start = this.now();
        const outcome = await callAsync(call);
        this.spent += this.now() - start;
        this.ready.set(key, outcome);
      }
    };
    await Promise.all(Array.from({ length: this.runner.parallelism ?? 1 }, lane));
  }

  private passSpent(): LuaCallOutcome {
    return {
      ok: false,
      failure: 'pass-budget',
      message: `the pass's Lua time budget of ${this.passTimeMs} ms is spent, so the script was not run`,
    };
  }
}

/** What a held call gives: never seen by a caller that runs its stage again after prefetchHeld. */
const HELD: LuaCallOutcome = { ok: false, failure: 'runtime', message: 'held: run ahead, then asked again' };

function keyOf(call: LuaCall): string {
  return JSON.stringify([call.chunkName, call.functionName, call.results, call.script, call.args]);
}
