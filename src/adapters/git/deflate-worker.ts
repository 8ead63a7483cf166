// Worker-thread entry of the deflate pool: deflates and hashes each task it is sent.
import { parentPort } from 'node:worker_threads';
import { deflateTask, type DeflateTask } from './deflate-batch.js';

parentPort?.on('message', (task: DeflateTask) => {
  const result = deflateTask(task);
  parentPort?.postMessage(result, [result.data.buffer as ArrayBuffer]);
});
