// One worker thread running Lua jobs one at a time (lua-worker.ts), with its deadline kept from
// outside: WebAssembly cannot be interrupted from inside, and the instruction hook never fires
// while a C function such as string.find backtracks, so a job past its deadline ends with the
// thread (Worker.terminate stops even a running wasm loop). A terminated thread is not used
// again; the runtime starts another.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { JOB_QUEUED, JOB_STARTED, type LuaJob, type LuaReply } from './lua-worker-protocol.js';

/** How long a thread may take to load the WebAssembly module before its first job. */
const STARTUP_MS = 60_000;

/** A job's end: the worker's reply, or why there is none. */
export type ThreadAnswer = LuaReply | { type: 'deadline' } | { type: 'lost'; message: string };

/** A Lua worker thread. */
export class LuaThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private waiting: ((answer: ThreadAnswer) => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lost: string | undefined;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(new URL('./lua-worker.js', import.meta.url), {
      workerData: { port: port2, flag: this.flag.buffer },
      transferList: [port2],
    });
    this.port.on('message', (reply: LuaReply) => this.onReply(reply));
    // An idle thread must not keep the process alive; a waiting job holds its timer instead.
    // (After `on`: adding a message listener refs the port again.)
    this.worker.unref();
    this.port.unref();
    this.worker.on('error', (error) => this.end({ type: 'lost', message: error.message }));
    this.worker.on('exit', (code) => this.end({ type: 'lost', message: `exited with code ${code}` }));
  }

  /** Whether the thread can take a job (it was not terminated and did not fail). */
  get usable(): boolean {
    return this.lost === undefined;
  }

  /** Runs a job and waits for it, blocking this thread: at most `timeMs` once the job started. */
  runSync(job: LuaJob, timeMs: number): ThreadAnswer {
    if (this.lost !== undefined) return { type: 'lost', message: this.lost };
    Atomics.store(this.flag, 0, JOB_QUEUED);
    this.port.postMessage(job);
    if (Atomics.wait(this.flag, 0, JOB_QUEUED, STARTUP_MS) === 'timed-out')
      return this.stop({ type: 'lost', message: `did not start within ${STARTUP_MS} ms` });
    if (Atomics.wait(this.flag, 0, JOB_STARTED, timeMs) === 'timed-out')
      return this.stop({ type: 'deadline' });
    for (;;) {
      const received = receiveMessageOnPort(this.port);
      if (received === undefined) return this.stop({ type: 'lost', message: 'finished without a reply' });
      const reply = received.message as LuaReply;
      if (reply.type !== 'started') return reply;
    }
  }

  /** Runs a job without blocking: its answer within `timeMs` once it started. */
  runAsync(job: LuaJob, timeMs: number): Promise<ThreadAnswer> {
    if (this.lost !== undefined) return Promise.resolve({ type: 'lost', message: this.lost });
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.deadline(STARTUP_MS, { type: 'lost', message: `did not start within ${STARTUP_MS} ms` });
      this.jobTime = timeMs;
      this.port.postMessage(job);
    });
  }

  /** Stops the thread. */
  close(): void {
    this.stop({ type: 'lost', message: 'closed' });
  }

  private jobTime = 0;

  private onReply(reply: LuaReply): void {
    if (this.waiting === undefined) return;
    if (reply.type === 'started') this.deadline(this.jobTime, { type: 'deadline' });
    else this.end(reply);
  }

  private deadline(ms: number, answer: ThreadAnswer): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stop(answer), ms);
  }

  private stop(answer: ThreadAnswer): ThreadAnswer {
    this.lost ??= answer.type === 'lost' ? answer.message : 'stopped at a deadline';
    void this.worker.terminate();
    this.end(answer);
    return answer;
  }

  private end(answer: ThreadAnswer): void {
    if (answer.type === 'lost') this.lost ??= answer.message;
    clearTimeout(this.timer);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(answer);
  }
}
