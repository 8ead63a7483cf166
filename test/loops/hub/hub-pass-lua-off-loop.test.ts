// Issue #27 point 8, in one process: a hub pass over WorkerPools whose ReviseReplica and
// AggregateStatus scripts are slow keeps the event loop answering. A probe timer ticks every
// 50 ms during the pass, as a liveness probe would ask; a probe is missed when the loop does not
// run it within a second (a kubelet probe's default timeout). The scripts take about 0.3 s each
// and the blocking version ran them back to back inside the render and the status records, so
// that several probes in a row went unanswered. Counted, not timed: the number of missed probes.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import { InterpreterSession } from '../../../src/adapters/lua/interpreter-session.js';
import { LuaWorkerRuntime } from '../../../src/adapters/lua/lua-worker-runtime.js';
import { slowLuaFleetFiles } from './slow-lua-fleet.js';
import {
  branchFiles,
  commitReadyReport,
  fleetRepoWith,
  hubPass,
  rendered,
  removeFleetRepos,
} from './hub-fixture.js';

const runtime = new LuaWorkerRuntime({ threads: 1 });
after(() => {
  runtime.close();
  removeFleetRepos();
});

const POOLS = 4;

/** Runs `work` with a probe every 50 ms; returns its value and how many probes came later than a second. */
async function probed<T>(work: () => Promise<T>): Promise<{ value: T; probes: number; missed: number }> {
  let last = performance.now();
  let probes = 0;
  let missed = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    probes++;
    // A gap of a second or more: the probes due in it had no answer.
    if (now - last >= 1000) missed += Math.floor((now - last) / 50);
    last = now;
  }, 50);
  try {
    const value = await work();
    return { value, probes, missed };
  } finally {
    clearInterval(timer);
  }
}

test('a hub pass with slow ReviseReplica and AggregateStatus scripts leaves the event loop answering', async () => {
  const repo = fleetRepoWith(
    slowLuaFleetFiles({ clusters: ['us-workers', 'eu-workers'], pools: POOLS, slowGetReplicas: false }),
    { bare: false },
  );
  const cache = {
    ...createHubPassCache(),
    interpreter: new InterpreterSession({ runtime, budget: { timeMs: 5000 } }),
  };
  await commitReadyReport(repo, 'us-workers', 'True', { appliedCommit: null });
  const { value, probes, missed } = await probed(() => hubPass(repo, { cache }));
  const pass = rendered(value);
  assert.equal(
    pass.diagnostics?.filter((d) => d.severity === 'error').length ?? 0,
    0,
    JSON.stringify(pass.diagnostics),
  );
  // The copies carry ReviseReplica's counts, and the records AggregateStatus' status.
  const us = branchFiles(repo, 'gitfleet/clusters/us-workers');
  assert.match(us.get('shop/WorkerPool.example.com/pool-0.yaml') ?? '', /workers: \d+/);
  const record = branchFiles(repo, 'gitfleet/bindings').get('shop/WorkerPool.example.com/pool-0.yaml') ?? '';
  assert.match(record, /clusters: \d/, 'the template status AggregateStatus made');
  assert.ok(probes > 0);
  assert.equal(missed, 0, `${missed} of ${probes + missed} probes went unanswered for a second or more`);
});
