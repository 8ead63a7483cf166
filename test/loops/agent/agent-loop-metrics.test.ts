// The agent loop's metrics and readiness on the fake cluster, scraped from a real endpoint:
// /readyz stays 503 until the first pass is done; the objects, drift corrections and passes
// are counted as the loop applies, finds in place and corrects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commitClusterBranch } from '../../support/cluster-branch.js';
import { eventually } from '../../support/eventually.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { httpGet, scrape } from '../../support/scrape-metrics.js';
import { Readiness } from '../../../src/loops/runtime/readiness.js';
import { prometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics.js';
import { startMetricsServer } from '../../../src/adapters/http/metrics-server.js';
import { fakeAgent, startFakeLoop } from './fake-agent.js';

const settings = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' };

test('a running agent loop is ready after its first pass and counts what its passes applied and corrected', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    aConfigMap('shop', 'settings', { mode: 'git' }),
    aConfigMap('shop', 'other', { mode: 'git' }),
  ]);
  const readiness = new Readiness();
  const metrics = prometheusMetrics({ kind: 'agent', cluster: agent.cluster });
  const server = await startMetricsServer({ port: 0, readiness, scrape: () => metrics.scrape() });
  t.after(() => server.close());
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let first = true;
  const { results, stop } = startFakeLoop(agent, {
    debounceMs: 500,
    metrics,
    readiness,
    pass: async () => {
      if (first) await gate;
      first = false;
      return agent.pass();
    },
  });
  t.after(stop);
  assert.equal((await httpGet(`${server.url}/readyz`)).status, 503);
  release();
  await eventually(() => results.length === 1 && agent.fake.openWatches() === 2, 'the first pass');
  assert.equal((await httpGet(`${server.url}/readyz`)).status, 200);
  const c = `cluster="${agent.cluster}"`;
  let samples = await scrape(server.url);
  assert.equal(samples.get(`gitfleet_agent_passes_total{result="applied",${c}}`), 1);
  assert.equal(samples.get(`gitfleet_agent_objects_total{outcome="applied",${c}}`), 3);
  assert.equal(samples.get(`gitfleet_agent_objects_total{outcome="unchanged",${c}}`), 0);
  assert.equal(samples.get(`gitfleet_agent_drift_corrections_total{${c}}`), 0);
  assert.equal(
    samples.get(`gitfleet_agent_last_successful_pass_timestamp_seconds{${c}}`),
    agent.clock.now() / 1000,
  );

  agent.fake.edit(settings, (o) => {
    o['data'] = { mode: 'by hand' };
  });
  await eventually(() => agent.clock.pending().length > 0, 'the watch event');
  agent.clock.advance(500);
  await eventually(() => results.length === 2, 'the pass the change asked for');
  samples = await scrape(server.url);
  assert.equal(samples.get(`gitfleet_agent_passes_total{result="applied",${c}}`), 2);
  assert.equal(samples.get(`gitfleet_agent_drift_corrections_total{${c}}`), 1);
  assert.equal(samples.get(`gitfleet_agent_objects_total{outcome="applied",${c}}`), 4);
  assert.equal(samples.get(`gitfleet_agent_objects_total{outcome="unchanged",${c}}`), 2);
  assert.equal(samples.get(`gitfleet_agent_pass_duration_seconds_count{${c}}`), 2);
});
