// Worker-thread entry of the Lua runtime (lua-worker-runtime.ts): runs one job at a time on its
// own LuaRuntime. Before a job it says so (a message, and the shared flag a parent calling
// synchronously waits on), so the parent's deadline counts the job alone, not the thread's start.
import { workerData, type MessagePort } from 'node:worker_threads';
import { LuaRuntime } from './lua-runtime.js';
import { JOB_DONE, JOB_STARTED, packOutcome, type LuaJob, type LuaReply } from './lua-worker-protocol.js';

const { port, flag: shared } = workerData as { port: MessagePort; flag: SharedArrayBuffer };
const flag = new Int32Array(shared);
const runtime = await LuaRuntime.create();

port.on('message', (job: LuaJob) => {
  Atomics.store(flag, 0, JOB_STARTED);
  Atomics.notify(flag, 0);
  port.postMessage({ type: 'started' } satisfies LuaReply);
  const reply: LuaReply =
    job.type === 'call'
      ? { type: 'call', outcome: packOutcome(runtime.call(job.call)) }
      : { type: 'syntax', message: runtime.checkSyntax(job.script, job.chunkName) };
  port.postMessage(reply);
  Atomics.store(flag, 0, JOB_DONE);
  Atomics.notify(flag, 0);
});
