// `agent --trusted-keys`: the agent applies and prunes only a cluster branch head signed by a
// key it was given. An unsigned head, one signed by an unknown key, a copied signature: nothing
// applied, nothing deleted, the objects as last reported, a Verified=False condition and a
// status commit naming the commit and the reason; a good head afterwards applies again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { addSignature, splitSignedCommit } from '../../../src/adapters/signing/commit-payload.js';
import { trustedKeysOf } from '../../../src/adapters/signing/load-trusted-keys.js';
import { readRef } from '../../../src/adapters/git/read-ref.js';
import { writeObjects } from '../../../src/adapters/git/write-objects.js';
import { updateRefs } from '../../../src/adapters/git/update-ref.js';
import { statusBranchRef } from '../../../src/loops/agent/agent-repo.js';
import { clusterBranchRef } from '../../../src/loops/agent/agent-repo.js';
import { commitClusterBranch, prefix } from '../../support/cluster-branch.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { madeKey } from '../../support/signing-keys.js';
import { fakeAgent, type FakeAgent } from './fake-agent.js';

const hub = await madeKey('hub');
const mallory = await madeKey('mallory');
const { verifier } = await trustedKeysOf([
  { text: hub.allowed('hub@gitfleet.invalid'), source: 'trusted-keys' },
]);
const objects = [
  aNamespace('shop'),
  aConfigMap('shop', 'web', { a: '1' }),
  aConfigMap('shop', 'api', { a: '1' }),
];
const changed = [aNamespace('shop'), aConfigMap('shop', 'web', { a: '2' })];

function statusSubject(agent: FakeAgent): string {
  return execFileSync('git', [
    '--git-dir',
    agent.gitdir,
    'log',
    '-1',
    '--format=%s',
    statusBranchRef(prefix, agent.cluster),
  ])
    .toString()
    .trim();
}

/** Puts a commit on the cluster branch whose signature is the one of `from`, copied onto other content. */
async function copySignature(agent: FakeAgent, from: string): Promise<string> {
  const read = (oid: string) => execFileSync('git', ['--git-dir', agent.gitdir, 'cat-file', 'commit', oid]);
  return putSigned(agent, splitSignedCommit(read(from)).signature ?? '');
}

/** Puts a commit on the cluster branch carrying `signature` as its signature block, whatever it is. */
async function putSigned(agent: FakeAgent, signature: string): Promise<string> {
  const unsigned = await commitClusterBranch(agent.gitdir, agent.cluster, changed, 'render: forged\n');
  const read = (oid: string) => execFileSync('git', ['--git-dir', agent.gitdir, 'cat-file', 'commit', oid]);
  const forged = addSignature(read(unsigned), signature);
  const ref = clusterBranchRef(prefix, agent.cluster);
  await writeObjects({ gitdir: agent.gitdir, objects: [forged], fsync: false });
  await updateRefs({
    gitdir: agent.gitdir,
    updates: [{ ref, newOid: forged.oid, expectedOld: await readRef(agent.gitdir, ref) }],
    fsync: false,
    allowNonFastForward: true,
  });
  return forged.oid;
}

test('A head the trusted key signed is applied; heads that are unsigned, signed by another key or carry a copied signature are refused, changing nothing.', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  const good = await commitClusterBranch(
    agent.gitdir,
    agent.cluster,
    objects,
    'render: good\n',
    undefined,
    undefined,
    hub.signer,
  );
  const first = await agent.pass({ verifier });
  assert.equal(first.type, 'applied');
  assert.equal(first.fullyApplied, true);
  const applied = agent.fake.mutations().length;
  assert.ok(applied > 0);

  const refusals: { name: string; put: () => Promise<string>; problem: RegExp }[] = [
    {
      name: 'unsigned',
      put: () => commitClusterBranch(agent.gitdir, agent.cluster, changed, 'render: unsigned\n'),
      problem: /: unsigned/,
    },
    {
      name: 'signed by an unknown key',
      put: () =>
        commitClusterBranch(
          agent.gitdir,
          agent.cluster,
          changed,
          'render: mallory\n',
          undefined,
          undefined,
          mallory.signer,
        ),
      problem: /UnknownKey by SHA256:\S+: ssh-ed25519 key SHA256:\S+ is not among the allowed signers/,
    },
    {
      name: 'a copied signature',
      put: () => copySignature(agent, good),
      problem:
        /BadSignature by hub@gitfleet\.invalid \(SHA256:\S+\): the signature does not match the commit/,
    },
    {
      name: 'a huge signature block',
      put: () =>
        putSigned(
          agent,
          `-----BEGIN SSH SIGNATURE-----\n${'QUFB\n'.repeat(100_000)}-----END SSH SIGNATURE-----\n`,
        ),
      problem: /Malformed: .*over the 16384-byte limit/,
    },
    {
      name: 'a malformed signature block',
      put: () => putSigned(agent, '-----BEGIN SSH SIGNATURE-----\n!!!\n-----END SSH SIGNATURE-----\n'),
      problem: /Malformed: .*not base64/,
    },
  ];
  for (const r of refusals) {
    const head = await r.put();
    const result = await agent.pass({ verifier });
    assert.equal(result.type, 'unverified', r.name);
    assert.equal(result.commit, head);
    assert.equal(result.fullyApplied, false);
    assert.match(result.unverified ?? '', new RegExp(`^commit ${head.slice(0, 12)}`), r.name);
    assert.match(result.unverified ?? '', r.problem, r.name);
    assert.equal(agent.fake.mutations().length, applied, `${r.name}: no write, no delete`);
    assert.ok(
      agent.fake.peek({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'api' }),
      `${r.name}: api kept`,
    );
    const report = await agent.report();
    assert.equal(report?.appliedCommit, good, `${r.name}: the last good commit is still the one applied`);
    assert.equal(report?.objects.length, 3, `${r.name}: the objects as last reported`);
    assert.deepEqual(
      report?.conditions?.map((c) => [c.type, c.status]),
      [['Verified', 'False']],
    );
    assert.match(
      statusSubject(agent),
      new RegExp(
        `^status m1: refused ${head.slice(0, 7)}: not signed by a trusted key; nothing applied, nothing deleted$`,
      ),
    );
  }

  const next = await commitClusterBranch(
    agent.gitdir,
    agent.cluster,
    changed,
    'render: good again\n',
    undefined,
    undefined,
    hub.signer,
  );
  const recovered = await agent.pass({ verifier });
  assert.equal(recovered.type, 'applied');
  assert.equal(recovered.fullyApplied, true);
  assert.equal((await agent.report())?.appliedCommit, next);
  assert.equal(
    agent.fake.peek({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'api' }),
    undefined,
    'pruned once signed',
  );
});

test('A hub key rotated mid-rollout: heads either key signed apply while both are trusted; once the old one expired, a head it signed is refused as KeyExpired.', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  const next = await madeKey('hub-next');
  // The fake clock starts on 2023-11-14: the old key is trusted until 2023-12-01, the new one from now on.
  const { verifier: rotating } = await trustedKeysOf([
    {
      text: `${hub.allowed('hub@gitfleet.invalid').replace(' ssh-ed25519', ' valid-before="20231201Z" ssh-ed25519')}\n${next.allowed('hub@gitfleet.invalid')}\n`,
      source: 'trusted-keys',
    },
  ]);
  const put = (list: typeof objects, key: typeof hub, message: string) =>
    commitClusterBranch(agent.gitdir, agent.cluster, list, message, undefined, undefined, key.signer);
  await put(objects, hub, 'render: by the old key\n');
  assert.equal((await agent.pass({ verifier: rotating })).type, 'applied');
  const byNew = await put(changed, next, 'render: signed again by the new key\n');
  const rotated = await agent.pass({ verifier: rotating });
  assert.equal(rotated.type, 'applied');
  assert.equal((await agent.report())?.appliedCommit, byNew);
  const applied = agent.fake.mutations().length;

  agent.clock.advance(30 * 24 * 3600 * 1000);
  const late = await put(objects, hub, 'render: by the old key, after it expired\n');
  const refused = await agent.pass({ verifier: rotating });
  assert.equal(refused.type, 'unverified');
  assert.match(
    refused.unverified ?? '',
    new RegExp(`^commit ${late.slice(0, 12)}: KeyExpired by hub@gitfleet\\.invalid \\(SHA256:\\S+\\): `),
  );
  assert.equal(agent.fake.mutations().length, applied, 'nothing applied with the expired key');
  assert.equal((await agent.report())?.appliedCommit, byNew, 'the last good commit stays applied');
});

test('A tombstone the hub did not sign is refused as unverified, not taken as a tombstone.', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [], 'tombstone: cluster m1 removed\n', {
    '.gitfleet/tombstone.yaml': 'kind: Tombstone\nreason: ClusterRemoved\n',
  });
  const result = await agent.pass({ verifier });
  assert.equal(result.type, 'unverified');
  assert.match(result.unverified ?? '', /unsigned/);
});

test('Without trusted keys an unsigned head is applied as before.', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, objects);
  assert.equal((await agent.pass()).type, 'applied');
});
