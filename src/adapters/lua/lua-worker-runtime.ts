// The Lua runtime of a process, in worker threads (lua-thread.ts): one thread for the calls
// made synchronously (the parent blocks on it, but never longer than the call's deadline) and
// a pool of one or two for calls and syntax checks made asynchronously, so the process's event loop keeps
// answering (health checks, lease renewal) while scripts run. A thread stopped at a deadline
// is replaced by a new one for the next call.
import { availableParallelism } from 'node:os';
import type { LuaCall, LuaCallOutcome } from './lua-runtime.js';
import { LuaThread, type ThreadAnswer } from './lua-thread.js';
import { unpackOutcome, type LuaJob } from './lua-worker-protocol.js';

/** What the interpreter needs of a runtime: the in-thread LuaRuntime or this one. */
export interface LuaRunner {
  /** Runs a call to its end or its budget, blocking the caller. */
  call(call: LuaCall): LuaCallOutcome;
  /** Runs a call without blocking the event loop (absent: the in-thread runtime, which cannot). */
  callAsync?(call: LuaCall): Promise<LuaCallOutcome>;
  /** Returns why a script does not compile, or undefined when it does. */
  checkSyntax(script: string, chunkName: string): string | undefined;
  /** The same without blocking the event loop (absent: the in-thread runtime). */
  checkSyntaxAsync?(script: string, chunkName: string): Promise<string | undefined>;
  /** How many asynchronous calls run at once. */
  readonly parallelism?: number;
}

/** A job's hard deadline past its own budget: the worker's instruction hook normally ends it first. */
function hardDeadline(timeMs: number): number {
  return Math.ceil(timeMs * 1.5) + 100;
}

/** Lua in worker threads: see above. */
export class LuaWorkerRuntime implements LuaRunner {
  private sync: LuaThread | undefined;
  private readonly idle: LuaThread[] = [];
  private readonly queue: (() => void)[] = [];
  private busy = 0;
  readonly parallelism: number;

  constructor(opts: { threads?: number } = {}) {
    this.parallelism = opts.threads ?? Math.max(1, Math.min(2, availableParallelism() - 1));
  }

  call(call: LuaCall): LuaCallOutcome {
    const answer = this.syncThread().runSync({ type: 'call', call }, hardDeadline(call.budget.timeMs));
    return outcomeOf(answer);
  }

  async callAsync(call: LuaCall): Promise<LuaCallOutcome> {
    const thread = await this.take();
    try {
      return outcomeOf(await thread.runAsync({ type: 'call', call }, hardDeadline(call.budget.timeMs)));
    } finally {
      this.give(thread);
    }
  }

  checkSyntax(script: string, chunkName: string): string | undefined {
    const job: LuaJob = { type: 'syntax', script, chunkName };
    return syntaxOf(this.syncThread().runSync(job, hardDeadline(1000)));
  }

  async checkSyntaxAsync(script: string, chunkName: string): Promise<string | undefined> {
    const thread = await this.take();
    try {
      return syntaxOf(await thread.runAsync({ type: 'syntax', script, chunkName }, hardDeadline(1000)));
    } finally {
      this.give(thread);
    }
  }

  /** Stops every thread. */
  close(): void {
    this.sync?.close();
    for (const thread of this.idle.splice(0)) thread.close();
  }

  private syncThread(): LuaThread {
    if (this.sync === undefined || !this.sync.usable) this.sync = new LuaThread();
    return this.sync;
  }

  private async take(): Promise<LuaThread> {
    while (this.busy >= this.parallelism) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.busy++;
    let thread = this.idle.pop();
    while (thread !== undefined && !thread.usable) thread = this.idle.pop();
    return thread ?? new LuaThread();
  }

  private give(thread: LuaThread): void {
    this.busy--;
    if (thread.usable) this.idle.push(thread);
    this.queue.shift()?.();
  }
}

function syntaxOf(answer: ThreadAnswer): string | undefined {
  if (answer.type === 'syntax') return answer.message;
  if (answer.type === 'lost') return `the Lua worker thread failed: ${answer.message}`;
  return 'the syntax check ran past its deadline';
}

function outcomeOf(answer: ThreadAnswer): LuaCallOutcome {
  switch (answer.type) {
    case 'call':
      return unpackOutcome(answer.outcome);
    case 'deadline':
      return { ok: false, failure: 'time-budget', message: 'time budget exceeded' };
    case 'lost':
      return { ok: false, failure: 'runtime', message: `the Lua worker thread failed: ${answer.message}` };
    default:
      return { ok: false, failure: 'runtime', message: 'the Lua worker thread answered out of turn' };
  }
}
