// The Lease election (adapters/kube/lease-election.ts) against a real API server, each
// candidate with a fake clock of its own: time moves only when a test says so, and the two
// clocks disagree by an hour, as skewed machines would. Each test works in a namespace of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeHttp } from '../../src/adapters/kube/kube-http.js';
import { LeaseElection, type LeaseTimings } from '../../src/adapters/kube/lease-election.js';
import {
  kubeLeaseStore,
  LeaseNamespaceMissing,
  type LeaseStore,
} from '../../src/adapters/kube/lease-store.js';
import { silentLogger } from '../../src/loops/runtime/logger.js';
import { fakeClock, type FakeClock } from '../loops/runtime/fake-clock.js';
import { eventually, inNamespace, testKubeConfig } from './test-clusters.js';

const timings: LeaseTimings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };
const hour = 3_600_000;

interface Candidate {
  election: LeaseElection;
  clock: FakeClock;
}

/** Runs `fn` with a store factory for the Lease `name` in a fresh namespace of the test cluster. */
async function withLease(fn: (store: () => LeaseStore, http: KubeHttp) => Promise<void>): Promise<void> {
  const kc = testKubeConfig();
  const http = new KubeHttp(kc);
  try {
    await inNamespace(kc, 'lease', (namespace) =>
      fn(() => kubeLeaseStore({ http, namespace, name: 'gitfleet-test', where: 'member1' }), http),
    );
  } finally {
    http.close();
  }
}

function candidate(identity: string, store: LeaseStore, start: number): Candidate {
  const clock = fakeClock(start);
  const election = new LeaseElection({
    ...timings,
    store,
    identity,
    clock,
    random: () => 0,
    log: silentLogger(),
  });
  return { election, clock };
}

test('two candidates race for a Lease nobody created: exactly one creates it, the other stands by', async () => {
  await withLease(async (store) => {
    const a = candidate('a', store(), 1_700_000_000_000);
    const b = candidate('b', store(), 1_700_000_000_000 + hour);
    const won = await Promise.all([a.election.tryAcquireOrRenew(), b.election.tryAcquireOrRenew()]);
    assert.equal(won.filter(Boolean).length, 1, `one winner, not ${JSON.stringify(won)}`);
    const [winner, loser] = won[0] ? [a, b] : [b, a];
    assert.equal(await loser.election.tryAcquireOrRenew(), false);
    assert.equal(await winner.election.tryAcquireOrRenew(), true, 'the holder renews');
    const lease = await store().get();
    assert.equal(lease?.record.holderIdentity, winner.election.identity);
    assert.equal(lease?.record.leaseTransitions, 0);
    assert.equal(lease?.record.leaseDurationSeconds, 15);
  });
});

test("a holder that stops renewing is replaced once the lease duration has passed on the standby's own clock, whatever the record's times say", async () => {
  await withLease(async (store) => {
    // a's clock is an hour behind b's: by b's clock, a's renewTime is an hour old from the start.
    const a = candidate('a', store(), 1_700_000_000_000);
    const b = candidate('b', store(), 1_700_000_000_000 + hour);
    assert.equal(await a.election.tryAcquireOrRenew(), true);
    assert.equal(
      await b.election.tryAcquireOrRenew(),
      false,
      'b judges by when it saw the record, not by renewTime',
    );
    b.clock.advance(timings.leaseDurationMs - 1);
    assert.equal(await b.election.tryAcquireOrRenew(), false, 'one millisecond short of the duration');
    b.clock.advance(1);
    assert.equal(await b.election.tryAcquireOrRenew(), true, 'the duration has passed since b saw it change');
    const lease = await store().get();
    assert.equal(lease?.record.holderIdentity, 'b');
    assert.equal(lease?.record.leaseTransitions, 1, 'a takeover is a transition');
    assert.equal(lease?.record.acquireTime, new Date(b.clock.now()).toISOString().replace('Z', '000Z'));
    assert.equal(await a.election.tryAcquireOrRenew(), false, 'a, back, finds b holding it');
  });
});

test("a standby's wait starts again each time it sees the holder renew", async () => {
  await withLease(async (store) => {
    const a = candidate('a', store(), 1_700_000_000_000);
    const b = candidate('b', store(), 1_700_000_000_000 - hour);
    assert.equal(await a.election.tryAcquireOrRenew(), true);
    assert.equal(await b.election.tryAcquireOrRenew(), false);
    b.clock.advance(10_000);
    a.clock.advance(2_000);
    assert.equal(await a.election.tryAcquireOrRenew(), true, 'a renews');
    assert.equal(await b.election.tryAcquireOrRenew(), false, 'b sees the renewal');
    b.clock.advance(10_000);
    assert.equal(
      await b.election.tryAcquireOrRenew(),
      false,
      '20 s since b first looked, 10 s since it changed',
    );
    b.clock.advance(5_000);
    assert.equal(await b.election.tryAcquireOrRenew(), true);
  });
});

test('a release hands the lease over at once', async () => {
  await withLease(async (store) => {
    const a = candidate('a', store(), 1_700_000_000_000);
    const b = candidate('b', store(), 1_700_000_000_000 + hour);
    const never = new AbortController().signal;
    assert.equal(await a.election.acquire(never), true);
    assert.equal(a.election.isLeading(), true);
    assert.equal(await b.election.tryAcquireOrRenew(), false);
    await a.election.release();
    assert.equal(a.election.isLeading(), false);
    const released = await store().get();
    assert.equal(released?.record.holderIdentity, '', 'the release clears the holder');
    assert.equal(await b.election.tryAcquireOrRenew(), true, 'b takes it without waiting');
    assert.equal((await store().get())?.record.leaseTransitions, 1);
  });
});

test('of two candidates that both find the lease expired, the one whose update carries a stale resourceVersion loses', async () => {
  await withLease(async (store) => {
    const a = candidate('a', store(), 1_700_000_000_000);
    const real = store();
    // c's update waits until a has renewed: c then writes with the resourceVersion it read before.
    let beforeUpdate: () => Promise<void> = async () => undefined;
    const racing: LeaseStore = {
      description: real.description,
      get: () => real.get(),
      create: (record) => real.create(record),
      update: async (record, resourceVersion) => {
        await beforeUpdate();
        return real.update(record, resourceVersion);
      },
    };
    const c = candidate('c', racing, 1_700_000_000_000 + hour);
    assert.equal(await a.election.tryAcquireOrRenew(), true);
    assert.equal(await c.election.tryAcquireOrRenew(), false);
    c.clock.advance(timings.leaseDurationMs);
    let renewedInBetween = false;
    beforeUpdate = async () => {
      beforeUpdate = async () => undefined;
      // A renewal writes a new renewTime (an update that changes nothing keeps the resourceVersion).
      a.clock.advance(1_000);
      renewedInBetween = await a.election.tryAcquireOrRenew();
    };
    assert.equal(await c.election.tryAcquireOrRenew(), false, 'the API server refuses the stale update');
    assert.equal(renewedInBetween, true);
    assert.equal((await store().get())?.record.holderIdentity, 'a');
  });
});

test('a leader whose renewals fail stops leading at the renew deadline and tells its listeners once', async () => {
  await withLease(async (store) => {
    const real = store();
    let failing = false;
    let updates = 0;
    const flaky: LeaseStore = {
      description: real.description,
      get: async () => {
        if (failing) throw new Error('no answer (test)');
        return real.get();
      },
      create: (record) => real.create(record),
      update: async (record, rv) => {
        const answer = await real.update(record, rv);
        updates++;
        return answer;
      },
    };
    const a = candidate('a', flaky, 1_700_000_000_000);
    let lost = 0;
    a.election.onLost(() => lost++);
    assert.equal(await a.election.acquire(new AbortController().signal), true);
    // Renewals every retry period keep it leading past the deadline.
    for (let i = 1; i <= 6; i++) {
      a.clock.advance(timings.retryPeriodMs);
      await eventually(`renewal ${i}`, async () => (updates >= i ? true : undefined), 10_000);
    }
    assert.equal(a.election.isLeading(), true, '12 s of successful renewals');
    failing = true;
    for (let i = 0; i < 4; i++) {
      a.clock.advance(timings.retryPeriodMs);
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(a.election.isLeading(), true, '8 s without a renewal: still leading');
    assert.equal(lost, 0);
    a.clock.advance(timings.retryPeriodMs - 1);
    assert.equal(a.election.isLeading(), true, 'one millisecond before the deadline');
    a.clock.advance(1);
    assert.equal(a.election.isLeading(), false, 'the deadline: no longer leading');
    assert.equal(lost, 1);
    a.clock.advance(timings.leaseDurationMs);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lost, 1, 'told once');
  });
});

test('a Lease in a namespace that does not exist fails with an error naming the namespace', async () => {
  await withLease(async (_store, http) => {
    const store = kubeLeaseStore({
      http,
      namespace: 'gitfleet-no-such-ns',
      name: 'gitfleet-test',
      where: 'member1',
      namespaceHint: 'the deploy manifests create it',
    });
    const a = candidate('a', store, 1_700_000_000_000);
    await assert.rejects(a.election.acquire(new AbortController().signal), (error: unknown) => {
      assert.ok(error instanceof LeaseNamespaceMissing);
      assert.match(
        error.message,
        /^Lease gitfleet-no-such-ns\/gitfleet-test in member1: namespace gitfleet-no-such-ns does not exist; the deploy manifests create it$/,
      );
      return true;
    });
  });
});
