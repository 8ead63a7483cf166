import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics.js';

/** Returns the value of one sample line of a scrape (`name{labels}`), or undefined. */
function sample(body: string, series: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('hub passes are counted by result, timed, and the last success, rollout decisions and evictions recorded', async () => {
  const hub = prometheusMetrics({ kind: 'hub' });
  hub.hubPass({
    result: 'rendered',
    seconds: 0.2,
    succeeded: true,
    at: 1_700_000_000,
    rolloutDecisions: ['Started', 'StepPassed'],
    evictions: ['TaintUntolerated', 'TaintUntolerated'],
  });
  hub.hubPass({
    result: 'loadFailed',
    seconds: 0.01,
    succeeded: false,
    at: 1_700_000_100,
    rolloutDecisions: [],
    evictions: [],
  });
  hub.gitExchange({ kind: 'fetch', seconds: 0.3, ok: true });
  hub.gitExchange({ kind: 'push', seconds: 0.1, ok: false });
  hub.gitRateLimited({ repository: 'https://github.com/acme/fleet.git' });
  hub.gitRateLimited({ repository: 'https://github.com/acme/fleet.git' });
  const { body } = await hub.scrape();
  assert.equal(sample(body, 'gitfleet_hub_passes_total{result="rendered"}'), 1);
  assert.equal(sample(body, 'gitfleet_hub_passes_total{result="loadFailed"}'), 1);
  assert.equal(sample(body, 'gitfleet_hub_pass_duration_seconds_count'), 2);
  assert.equal(sample(body, 'gitfleet_hub_pass_duration_seconds_bucket{le="0.25"}'), 2);
  assert.equal(sample(body, 'gitfleet_hub_pass_duration_seconds_bucket{le="0.1"}'), 1);
  assert.equal(sample(body, 'gitfleet_hub_last_successful_pass_timestamp_seconds'), 1_700_000_000);
  assert.equal(sample(body, 'gitfleet_hub_rollout_decisions_total{type="StepPassed"}'), 1);
  assert.equal(sample(body, 'gitfleet_hub_evictions_total{reason="TaintUntolerated"}'), 2);
  assert.equal(sample(body, 'gitfleet_git_fetch_duration_seconds_count'), 1);
  assert.equal(sample(body, 'gitfleet_git_fetch_failures_total'), 0);
  assert.equal(sample(body, 'gitfleet_git_push_failures_total'), 1);
  assert.equal(
    sample(body, 'gitfleet_git_rate_limited_total{repository="https://github.com/acme/fleet.git"}'),
    2,
  );
  assert.doesNotMatch(body, /gitfleet_agent_/, 'a hub has no agent metrics');
});

test('agent passes count objects by outcome, drift corrections and fights, with the cluster on every series', async () => {
  const agent = prometheusMetrics({ kind: 'agent', cluster: 'member1' });
  const other = prometheusMetrics({ kind: 'agent', cluster: 'member2' });
  agent.agentPass({
    result: 'applied',
    seconds: 1.5,
    succeeded: true,
    at: 1_700_000_000,
    objects: { applied: 3, unchanged: 5, failed: 1, pruned: 2 },
    driftCorrections: 1,
    fightsBackedOff: 1,
  });
  const { body } = await agent.scrape();
  assert.equal(sample(body, 'gitfleet_agent_passes_total{result="applied",cluster="member1"}'), 1);
  assert.equal(sample(body, 'gitfleet_agent_objects_total{outcome="applied",cluster="member1"}'), 3);
  assert.equal(sample(body, 'gitfleet_agent_objects_total{outcome="unchanged",cluster="member1"}'), 5);
  assert.equal(sample(body, 'gitfleet_agent_objects_total{outcome="failed",cluster="member1"}'), 1);
  assert.equal(sample(body, 'gitfleet_agent_objects_total{outcome="pruned",cluster="member1"}'), 2);
  assert.equal(sample(body, 'gitfleet_agent_drift_corrections_total{cluster="member1"}'), 1);
  assert.equal(sample(body, 'gitfleet_agent_fights_backed_off_total{cluster="member1"}'), 1);
  assert.equal(
    sample(body, 'gitfleet_agent_last_successful_pass_timestamp_seconds{cluster="member1"}'),
    1_700_000_000,
  );
  // Each process has its own registry: the other agent saw nothing.
  const second = (await other.scrape()).body;
  assert.equal(sample(second, 'gitfleet_agent_objects_total{outcome="applied",cluster="member2"}'), 0);
  assert.equal(sample(second, 'gitfleet_agent_passes_total{result="applied",cluster="member2"}'), undefined);
});
