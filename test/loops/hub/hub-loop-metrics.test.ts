// The hub loop's metrics and readiness, scraped from a real endpoint while the loop runs real
// passes on a real repository: /readyz stays 503 until the first pass is done, and the pass
// counters move with each pass.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runHubLoop } from '../../../src/loops/hub/hub-loop.js';
import type { HubPassResult } from '../../../src/loops/hub/hub-pass-result.js';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { Readiness } from '../../../src/loops/runtime/readiness.js';
import type { Trigger } from '../../../src/loops/runtime/trigger.js';
import { prometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics.js';
import { startMetricsServer } from '../../../src/adapters/http/metrics-server.js';
import { commitChange, exampleFleetRepo, hubPass, removeFleetRepos } from './hub-fixture.js';
import { fakeClock } from '../runtime/fake-clock.js';
import { eventually } from '../../support/eventually.js';
import { httpGet, scrape } from '../../support/scrape-metrics.js';

after(removeFleetRepos);

test('a running hub loop is not ready before its first pass, is after it, and counts its passes by result', async (t) => {
  const repo = exampleFleetRepo({ bare: false });
  const clock = fakeClock(1_800_000_000_000);
  const readiness = new Readiness();
  const metrics = prometheusMetrics({ kind: 'hub' });
  const server = await startMetricsServer({ port: 0, readiness, scrape: () => metrics.scrape() });
  t.after(() => server.close());
  let notify: (reason: string) => void = () => undefined;
  const trigger: Trigger = { name: 'by hand', start: (n) => void (notify = n), stop: async () => undefined };
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const cache = createHubPassCache();
  const results: HubPassResult[] = [];
  let stop!: () => void;
  const loop = runHubLoop({
    pass: async () => {
      await gate;
      return hubPass(repo, { cache });
    },
    triggers: [trigger],
    clock,
    random: () => 0,
    log: silentLogger(),
    report: (r) => results.push(r),
    stop: new Promise<void>((resolve) => (stop = resolve)),
    metrics,
    readiness,
  });

  const before = await httpGet(`${server.url}/readyz`);
  assert.deepEqual([before.status, before.body], [503, 'the first pass has not finished\n']);
  assert.equal((await httpGet(`${server.url}/healthz`)).status, 200);
  release();
  await eventually(() => results.length === 1, 'the first pass');
  assert.equal((await httpGet(`${server.url}/readyz`)).status, 200);
  let samples = await scrape(server.url);
  assert.equal(samples.get('gitfleet_hub_passes_total{result="rendered"}'), 1);
  assert.equal(samples.get('gitfleet_hub_pass_duration_seconds_count'), 1);
  assert.equal(samples.get('gitfleet_hub_last_successful_pass_timestamp_seconds'), 1_800_000_000);

  // Nothing new: up to date, a success. Then a source that does not load: counted, and the
  // last success stays where it was.
  clock.advance(60_000);
  notify('resync');
  await eventually(() => results.length === 2, 'the second pass');
  commitChange(repo, 'bad yaml', (work) =>
    writeFileSync(join(work, 'apps/bad.yaml'), 'kind: ConfigMap\n  bad: x\n'),
  );
  clock.advance(60_000);
  notify('pushed');
  await eventually(() => results.length === 3, 'the third pass');
  samples = await scrape(server.url);
  assert.deepEqual(
    results.map((r) => r.type),
    ['rendered', 'upToDate', 'loadFailed'],
  );
  assert.equal(samples.get('gitfleet_hub_passes_total{result="rendered"}'), 1);
  assert.equal(samples.get('gitfleet_hub_passes_total{result="upToDate"}'), 1);
  assert.equal(samples.get('gitfleet_hub_passes_total{result="loadFailed"}'), 1);
  assert.equal(samples.get('gitfleet_hub_pass_duration_seconds_count'), 3);
  assert.equal(samples.get('gitfleet_hub_last_successful_pass_timestamp_seconds'), 1_800_000_060);

  stop();
  await loop;
  assert.equal((await httpGet(`${server.url}/healthz`)).status, 503, 'a stopped loop is not alive');
});
