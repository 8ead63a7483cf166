// The cluster monitor takes a heartbeat (or a status head) as a sign of life only when the
// cluster's registered key (gitfleet.io/signing-key) signed it: real repositories, real ed25519
// signatures, the keys handed from a real hub pass to the monitor, the monitor on a fake clock.
// An unsigned heartbeat, one signed by another cluster's key, one signed by a key the
// registration no longer names, and old heads pushed back each leave the cluster judged at the
// very look it is judged at with no heartbeat at all; a good one keeps it Ready.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeHeartbeat } from '../../../src/loops/agent/heartbeat.js';
import { localAgentRepo } from '../../../src/loops/agent/agent-repo.js';
import { clusterMonitor, type ClusterMonitor } from '../../../src/loops/hub/cluster-monitor.js';
import { defaultClusterMonitorSettings } from '../../../src/loops/hub/cluster-monitor-rules.js';
import { StatusRepositories } from '../../../src/loops/hub/status-repositories.js';
import { localHubRepo } from '../../../src/adapters/remote/hub-repo.js';
import type { Logger } from '../../../src/loops/runtime/logger.js';
import { madeKey, type MadeKey } from '../../support/signing-keys.js';
import { fakeClock, type FakeClock } from '../runtime/fake-clock.js';
import {
  commitChange,
  fleetRepoWith,
  git,
  hubPass,
  removeFleetRepos,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

const keys: Record<'member1' | 'member2' | 'rotated', MadeKey> = {
  member1: await madeKey('gitfleet-agent@member1'),
  member2: await madeKey('gitfleet-agent@member2'),
  rotated: await madeKey('gitfleet-agent@member2-new'),
};

const registration = (name: string, key: string | undefined): string =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n${
    key ? `  annotations:\n    gitfleet.io/signing-key: ${key}\n` : ''
  }`;

/** A hub, its monitor and the warnings it logged, on a fleet of member1 and member2 (keyed) and member3 (no key). */
interface World {
  repo: FleetRepo;
  clock: FakeClock;
  monitor: ClusterMonitor;
  warnings: string[];
  /** Runs a hub pass, which hands the registrations' keys to the monitor. */
  pass: () => Promise<void>;
}

async function world(): Promise<World> {
  const repo = fleetRepoWith(
    {
      'clusters/member1.yaml': registration('member1', keys.member1.publicLine),
      'clusters/member2.yaml': registration('member2', keys.member2.publicLine),
      'clusters/member3.yaml': registration('member3', undefined),
    },
    { bare: false },
  );
  const clock = fakeClock();
  const warnings: string[] = [];
  // The refusals; the verdicts themselves are read from the monitor.
  const warn = (m: string) => void (/ judged Unknown /.test(m) || warnings.push(m));
  const log: Logger = { info: () => undefined, warn, error: () => undefined };
  const status = new StatusRepositories({ open: localHubRepo, branchPrefix: () => 'gitfleet/', log });
  const pass = async (): Promise<void> => void (await hubPass(repo, { statusRepositories: status }));
  const monitor = clusterMonitor({
    gitdir: repo.gitdir,
    branchPrefix: 'gitfleet/',
    settings: defaultClusterMonitorSettings,
    elapsed: () => clock.now(),
    clock,
    log,
    signingKeys: () => status.signingKeys(),
  });
  await monitor.look();
  assert.equal(monitor.judging(), false);
  await pass();
  return { repo, clock, monitor, warnings, pass };
}

/** Moves `cluster`'s heartbeat (or status) ref to a new commit signed by `by`'s key (undefined: unsigned). */
function beat(w: World, cluster: string, by: MadeKey | undefined, ref: 'heartbeat' | 'status' = 'heartbeat') {
  return writeHeartbeat({
    repo: localAgentRepo(w.repo.path),
    ref: `refs/heads/gitfleet/${ref}/${cluster}`,
    cluster,
    author: {
      name: `agent ${cluster}`,
      email: 'agent@gitfleet.invalid',
      time: Math.floor(w.clock.now() / 1000),
      tzOffsetMinutes: 0,
    },
    ...(by ? { signer: by.signer } : {}),
  });
}

/**
 * Runs the fleet for `seconds`, looking every 5 s: member1 and member3 beat every 10 s as their
 * agents do (member3 unsigned: it has no key), member2's ref moves as `member2` says at each
 * 10 s (nothing when it returns nothing). Returns the second of the first look that judged
 * member2 (undefined: none did).
 */
async function judgedAt(
  w: World,
  seconds: number,
  member2: (s: number) => Promise<unknown> | undefined,
): Promise<number | undefined> {
  let judged: number | undefined;
  for (let s = 5; s <= seconds; s += 5) {
    w.clock.advance(5000);
    if (s % 10 === 0) {
      await beat(w, 'member1', keys.member1);
      await beat(w, 'member3', undefined);
      await member2(s);
    }
    await w.monitor.look();
    if (judged === undefined && w.monitor.verdicts().has('member2')) judged = s;
  }
  assert.deepEqual(
    [...w.monitor.verdicts().keys()].filter((c) => c !== 'member2'),
    [],
    'member1 and member3 stay Ready',
  );
  return judged;
}

test('a heartbeat counts only when signed by its own cluster key: unsigned, or signed by another cluster, it is as if none came', async () => {
  const silent = await world();
  const baseline = await judgedAt(silent, 150, () => undefined);
  assert.equal(baseline, 70, 'no heartbeat: judged after the startup grace period');
  assert.deepEqual(silent.warnings, []);

  const good = await world();
  assert.equal(await judgedAt(good, 150, () => beat(good, 'member2', keys.member2)), undefined);
  assert.deepEqual(good.warnings, [], 'signed heartbeats, and member3 unverified without a word');

  const unsigned = await world();
  const pushed: string[] = [];
  const forged = async () => void pushed.push(await beat(unsigned, 'member2', undefined));
  assert.equal(await judgedAt(unsigned, 150, forged), baseline);
  assert.equal(unsigned.warnings.length, pushed.length, 'one warning per refused head');
  const [first] = unsigned.warnings;
  assert.equal(
    first,
    `cluster member2: heartbeat refs/heads/gitfleet/heartbeat/member2 at commit ${pushed[0]!.slice(0, 12)} ignored, not taken as a sign of life: not signed by member2's key (gitfleet.io/signing-key): commit ${pushed[0]!.slice(0, 12)}: unsigned`,
  );

  const crossed = await world();
  assert.equal(await judgedAt(crossed, 150, () => beat(crossed, 'member2', keys.member1)), baseline);
  assert.match(
    crossed.warnings[0]!,
    /^cluster member2: heartbeat refs\/heads\/gitfleet\/heartbeat\/member2 at commit [0-9a-f]{12} ignored, .*: UnknownKey by SHA256:/,
  );
});

test('a refused head is warned about once, however many looks see it', async () => {
  const w = await world();
  await beat(w, 'member2', undefined);
  for (let n = 0; n < 5; n++) {
    w.clock.advance(5000);
    await w.monitor.look();
  }
  assert.equal(w.warnings.length, 1, w.warnings.join('\n'));
});

test('a key the registration no longer names (revoked) proves nothing from the pass that reads the change on', async () => {
  const revoke = async (w: World) => {
    commitChange(w.repo, "member2's key revoked", (work) =>
      writeFileSync(join(work, 'clusters/member2.yaml'), registration('member2', keys.rotated.publicLine)),
    );
    await w.pass();
  };
  // The agent beats with its key until 40 s, when the key is revoked; from then on either
  // it stops (the baseline) or it goes on beating with the revoked key.
  const stopped = await world();
  const baseline = await judgedAt(stopped, 200, async (s) => {
    if (s === 40) await revoke(stopped);
    if (s < 40) await beat(stopped, 'member2', keys.member2);
  });
  assert.equal(baseline, 95, 'judged a grace period after its last heartbeat counted');
  const leaked = await world();
  const judged = await judgedAt(leaked, 200, async (s) => {
    if (s === 40) await revoke(leaked);
    await beat(leaked, 'member2', keys.member2);
  });
  assert.equal(judged, baseline);
  assert.match(leaked.warnings.at(-1)!, /ignored, .*: UnknownKey by SHA256:/);
  // The agent gets its new key: it is seen alive again.
  const recovered = await judgedAt(leaked, 60, () => beat(leaked, 'member2', keys.rotated));
  assert.equal(recovered, 5, 'still judged at first, until the success threshold');
  assert.equal(leaked.monitor.verdicts().has('member2'), false, 'and Ready once it is past');
});

test('old signed heartbeats pushed back (a replay) are no sign of life', async () => {
  const own: string[] = [];
  const stopped = await world();
  const baseline = await judgedAt(stopped, 200, async (s) => {
    if (s <= 30) await beat(stopped, 'member2', keys.member2);
  });
  const replayed = await world();
  const judged = await judgedAt(replayed, 200, async (s) => {
    if (s <= 30) own.push(await beat(replayed, 'member2', keys.member2));
    // The agent is gone; someone pushes its old heads back, one after the other.
    else git(replayed.repo, ['update-ref', 'refs/heads/gitfleet/heartbeat/member2', own[(s / 10) % 2]!]);
  });
  assert.equal(judged, baseline);
  assert.match(
    replayed.warnings[0]!,
    /signed by member2's key, but not newer than the heartbeat last accepted \(commit [0-9a-f]{12}\): an older head pushed back$/,
  );
});

test('a status head counts as a sign of life only when signed by the cluster key', async () => {
  const silent = await world();
  const baseline = await judgedAt(silent, 150, () => undefined);
  const unsigned = await world();
  assert.equal(await judgedAt(unsigned, 150, () => beat(unsigned, 'member2', undefined, 'status')), baseline);
  assert.match(
    unsigned.warnings[0]!,
    /^cluster member2: status refs\/heads\/gitfleet\/status\/member2 at commit [0-9a-f]{12} ignored/,
  );
  const signed = await world();
  assert.equal(await judgedAt(signed, 150, () => beat(signed, 'member2', keys.member2, 'status')), undefined);
});
