import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentLeaseOf } from '../../src/cli/commands/agent-lease.js';
import { leaderElectionOf } from '../../src/cli/commands/hub-leadership.js';
import { leaseTimingsOf } from '../../src/cli/commands/lease-timings-of.js';
import { UsageError } from '../../src/cli/usage-error.js';

const agent = (duration: number, renew: number, retry: number) => ({
  once: false,
  'no-lease': false,
  'lease-namespace': 'gitfleet-system',
  'lease-duration': duration,
  'lease-renew-deadline': renew,
  'lease-retry-period': retry,
});

const hub = (duration: number, renew: number, retry: number) => ({
  'leader-elect': true,
  once: false,
  'leader-elect-resource-namespace': 'gitfleet-system',
  'leader-elect-resource-name': 'gitfleet-hub',
  'leader-elect-lease-duration': duration,
  'leader-elect-renew-deadline': renew,
  'leader-elect-retry-period': retry,
});

const usage = (message: string) => (e: unknown) => e instanceof UsageError && e.message === message;

test('The agent and the hub read their Lease timings alike, each naming its own flags.', () => {
  const timings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };
  assert.deepEqual(agentLeaseOf(agent(15_000, 10_000, 2_000)).lease, {
    ...timings,
    namespace: 'gitfleet-system',
  });
  assert.deepEqual(leaderElectionOf(hub(15_000, 10_000, 2_000)).leaderElection, {
    ...timings,
    namespace: 'gitfleet-system',
    name: 'gitfleet-hub',
  });
  const cases = [
    {
      given: [15_500, 10_000, 2_000],
      agent: '--lease-duration must be a whole number of seconds (a Lease holds seconds)',
      hub: '--leader-elect-lease-duration must be a whole number of seconds (a Lease holds seconds)',
    },
    {
      given: [10_000, 10_000, 2_000],
      agent: '--lease-duration must be longer than --lease-renew-deadline',
      hub: '--leader-elect-lease-duration must be longer than --leader-elect-renew-deadline',
    },
    {
      given: [15_000, 2_000, 2_000],
      agent: '--lease-renew-deadline must be longer than --lease-retry-period',
      hub: '--leader-elect-renew-deadline must be longer than --leader-elect-retry-period',
    },
    {
      given: [15_000, 10_000, 0],
      agent: '--lease-retry-period must be positive',
      hub: '--leader-elect-retry-period must be positive',
    },
  ] as const;
  for (const c of cases) {
    const [duration, renew, retry] = c.given;
    assert.throws(() => agentLeaseOf(agent(duration, renew, retry)), usage(c.agent));
    assert.throws(() => leaderElectionOf(hub(duration, renew, retry)), usage(c.hub));
  }
});

test('Without a Lease (--no-lease, --once, no --leader-elect) the timings are not read.', () => {
  assert.deepEqual(agentLeaseOf({ ...agent(1, 1, 1), 'no-lease': true }), {});
  assert.deepEqual(agentLeaseOf({ ...agent(1, 1, 1), once: true }), {});
  assert.deepEqual(leaderElectionOf({ ...hub(1, 1, 1), 'leader-elect': false }), {});
});

test('The parser takes any three flag names.', () => {
  const values = { a: 4_000, b: 3_000, c: 1_000 };
  const flags = { leaseDurationMs: 'a', renewDeadlineMs: 'b', retryPeriodMs: 'c' } as const;
  assert.deepEqual(leaseTimingsOf(values, flags), {
    leaseDurationMs: 4_000,
    renewDeadlineMs: 3_000,
    retryPeriodMs: 1_000,
  });
  assert.throws(() => leaseTimingsOf({ ...values, b: 4_000 }, flags), usage('--a must be longer than --b'));
});
