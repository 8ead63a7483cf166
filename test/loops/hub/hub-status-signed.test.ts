// The hub reads a cluster's status only from commits signed by the key its registration names
// (gitfleet.io/signing-key): a report Ready=False pushed onto member2's status branch signed by
// member1's key, or unsigned, is ignored with a warning naming the commit, taints nothing and
// evicts nothing, and the hub keeps reading member2's last signed report; the same report signed
// by member2's own key taints it. A cluster registered without a key is read as before.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterTaintsPath } from '../../../src/core/failover/cluster-taints.js';
import { statusBranchFiles } from '../../../src/core/status/status-branch.js';
import { buildTreeFromScratch } from '../../../src/adapters/git/build-tree-from-scratch.js';
import { toGitObject } from '../../../src/adapters/git/hash-object.js';
import { makeCommit } from '../../../src/adapters/git/make-commit.js';
import { readRef } from '../../../src/adapters/git/read-ref.js';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import { updateRefs } from '../../../src/adapters/git/update-ref.js';
import { writeObjects } from '../../../src/adapters/git/write-objects.js';
import { generateSshKey, type OpensshKeyPair } from '../../../src/adapters/signing/generate-ssh-key.js';
import { signCommit, type CommitSigner } from '../../../src/adapters/signing/commit-signer.js';
import { signerOfText } from '../../../src/adapters/signing/load-signing-key.js';
import { addSignature, splitSignedCommit } from '../../../src/adapters/signing/commit-payload.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  branchFiles,
  commitChange,
  fleetRepoWith,
  git,
  hubPass,
  rendered,
  removeFleetRepos,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

const keys: Record<string, OpensshKeyPair> = {
  member1: generateSshKey('gitfleet-agent@member1'),
  member2: generateSshKey('gitfleet-agent@member2'),
};

const cluster = (name: string, key: string | undefined) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: ${name}
${key ? `  annotations:\n    gitfleet.io/signing-key: ${key}\n` : ''}spec: {}
`;

function fleet(opts: { keyed: boolean | 'member1' }): FleetRepo {
  const keyOf = (name: string) =>
    opts.keyed === true || opts.keyed === name ? keys[name]!.publicLine : undefined;
  return fleetRepoWith(
    {
      'clusters/member1.yaml': cluster('member1', keyOf('member1')),
      'clusters/member2.yaml': cluster('member2', keyOf('member2')),
      'apps/web.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  template:
    spec:
      containers: [{name: web, image: web:1}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
`,
    },
    { bare: false },
  );
}

const signers = new Map<string, Promise<CommitSigner>>();
function signerOf(name: string): Promise<CommitSigner> {
  if (!signers.has(name)) signers.set(name, signerOfText(keys[name]!.privateKey, name));
  return signers.get(name)!;
}

let tick = 0;
/** Pushes a status report of `cluster` (Ready = status) on top of its status branch, signed by `by`'s key or unsigned. */
async function report(
  repo: FleetRepo,
  cluster: string,
  status: 'True' | 'False',
  by: string | undefined,
  time = 1_700_000_200 + tick++,
): Promise<string> {
  const ref = `refs/heads/gitfleet/status/${cluster}`;
  const parent = await readRef(repo.gitdir, ref);
  const applied = git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`]).trim();
  const files = statusBranchFiles({
    cluster,
    appliedCommit: applied,
    clusterStatus: { conditions: [{ type: 'Ready', status }] },
    objects: [],
  });
  const blobs = [...files].map(([path, text]) => [path, toGitObject('blob', Buffer.from(text))] as const);
  const tree = buildTreeFromScratch(new Map(blobs.map(([path, blob]) => [path, blob.oid])));
  const who = {
    name: 'agent',
    email: 'agent@gitfleet.invalid',
    time,
    tzOffsetMinutes: 0,
  };
  const unsigned = makeCommit({
    tree: tree.root,
    parents: parent === null ? [] : [parent],
    author: who,
    message: `status of ${cluster}\n`,
  });
  const commit = by === undefined ? unsigned : await signCommit(unsigned, await signerOf(by));
  await writeObjects({
    gitdir: repo.gitdir,
    objects: [...blobs.map(([, b]) => b), ...tree.newObjects, commit],
  });
  await updateRefs({ gitdir: repo.gitdir, updates: [{ ref, newOid: commit.oid, expectedOld: parent }] });
  return commit.oid;
}

function taintsOf(repo: FleetRepo, name: string): string | undefined {
  return branchFiles(repo, 'gitfleet/bindings').get(clusterTaintsPath(name));
}

/** Puts `forged` back on member2's status branch as `content` would have it: a commit of the same report carrying another signature block. */
function resigned(repo: FleetRepo, forged: string, sign: (content: Buffer) => Uint8Array): string {
  const content = Buffer.from(`${git(repo, ['cat-file', 'commit', forged])}\n`);
  const oid = git(repo, ['hash-object', '-t', 'commit', '-w', '--stdin'], {
    input: Buffer.from(sign(content)).toString('latin1'),
  });
  git(repo, ['update-ref', 'refs/heads/gitfleet/status/member2', oid, forged]);
  return oid;
}

const hugeBlock = `-----BEGIN SSH SIGNATURE-----\n${'QUFB\n'.repeat(100_000)}-----END SSH SIGNATURE-----\n`;

for (const [forgery, by, problem, redo] of [
  ['signed by member1 (another cluster)', 'member1', /UnknownKey/, undefined],
  ['unsigned', undefined, /unsigned/, undefined],
  [
    "carrying member2's signature copied from its good report",
    undefined,
    /BadSignature/,
    (repo: FleetRepo, forged: string, good: string) => {
      const signature = splitSignedCommit(
        Buffer.from(`${git(repo, ['cat-file', 'commit', good])}\n`),
      ).signature!;
      return resigned(repo, forged, (content) => addSignature(content, signature).content);
    },
  ],
  [
    'with a signature block over 16 KiB',
    undefined,
    /Malformed: .*over the 16384-byte limit/,
    (repo: FleetRepo, forged: string) =>
      resigned(repo, forged, (content) => addSignature(content, hugeBlock).content),
  ],
] as const) {
  test(`A status report Ready=False on member2's branch ${forgery} is ignored with a warning naming it, and taints nothing.`, async () => {
    const repo = fleet({ keyed: true });
    rendered(await hubPass(repo));
    const good = await report(repo, 'member2', 'True', 'member2');
    await report(repo, 'member1', 'True', 'member1');
    rendered(await hubPass(repo));
    const unsignedOrBy = await report(repo, 'member2', 'False', by);
    const forged = redo ? redo(repo, unsignedOrBy, good) : unsignedOrBy;
    const pass = await hubPass(repo);
    // Nothing changed that the hub believes: no commit at all, and the result says why.
    assert.equal(pass.type, 'upToDate', JSON.stringify(pass));
    const warning = pass.statusRefused?.['member2'] ?? '';
    assert.deepEqual(Object.keys(pass.statusRefused ?? {}), ['member2']);
    assert.match(warning, new RegExp(`gitfleet/status/member2 .*commit ${forged.slice(0, 12)}`));
    assert.match(warning, problem);
    assert.match(warning, new RegExp(`its last signed report, commit ${good.slice(0, 12)}`));
    // The bindings record names the signed head it aggregated, never the forged one.
    assert.doesNotMatch(
      git(repo, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']),
      new RegExp(forged),
    );
    assert.equal(taintsOf(repo, 'member2'), undefined, 'no taint from a report member2 did not sign');
    // A later change to the fleet renders on member2's signed report, the warning among its diagnostics.
    commitChange(repo, 'scale web', (work) =>
      writeFileSync(
        join(work, 'apps/web.yaml'),
        readFileSync(join(work, 'apps/web.yaml'), 'utf8').replace('replicas: 2', 'replicas: 4'),
      ),
    );
    const next = rendered(await hubPass(repo));
    assert.deepEqual(
      next.diagnostics.filter((d) => d.code === 'StatusRefused').map((d) => [d.severity, d.cluster]),
      [['warning', 'member2']],
    );
    assert.deepEqual(next.decisions?.filter((d) => d.type === 'TaintAdded') ?? [], []);
    assert.equal(taintsOf(repo, 'member2'), undefined);
  });
}

test("The same report signed by member2's own key taints member2: the check lets the cluster's reports through.", async () => {
  const repo = fleet({ keyed: true });
  rendered(await hubPass(repo));
  await report(repo, 'member1', 'True', 'member1');
  await report(repo, 'member2', 'False', 'member2');
  const pass = rendered(await hubPass(repo));
  assert.ok(!pass.diagnostics.some((d) => d.code === 'StatusRefused'), JSON.stringify(pass.diagnostics));
  assert.match(taintsOf(repo, 'member2') ?? '', /cluster\.karmada\.io\/not-ready/);
});

test('A status branch moved back to an older report its agent signed (a replay) is not read in place of the newer one: no taint.', async () => {
  const repo = fleet({ keyed: true });
  const cache = createHubPassCache();
  rendered(await hubPass(repo, { cache }));
  await report(repo, 'member1', 'True', 'member1');
  const old = await report(repo, 'member2', 'False', 'member2');
  const newer = await report(repo, 'member2', 'True', 'member2');
  rendered(await hubPass(repo, { cache }));
  git(repo, ['update-ref', 'refs/heads/gitfleet/status/member2', old, newer]);
  const pass = await hubPass(repo, { cache });
  assert.match(
    pass.statusRefused?.['member2'] ?? '',
    new RegExp(
      `gitfleet/status/member2 was moved back to commit ${old.slice(0, 12)}, a report older .* than commit ${newer.slice(0, 12)} the hub read before.*its last signed report, commit ${newer.slice(0, 12)}`,
    ),
  );
  assert.equal(taintsOf(repo, 'member2'), undefined, 'the old Ready=False report taints nothing');
  // The limit (docs/security.md): a restarted hub has read nothing before, and takes the head it finds.
  rendered(await hubPass(repo, { cache: createHubPassCache() }));
  assert.match(taintsOf(repo, 'member2') ?? '', /cluster\.karmada\.io\/not-ready/);
});

test("After a key is revoked, the hub never keeps reading a report the old key signed, even when the new key's is older by its time.", async () => {
  const repo = fleet({ keyed: true });
  const cache = createHubPassCache();
  rendered(await hubPass(repo, { cache }));
  await report(repo, 'member1', 'True', 'member1');
  await report(repo, 'member2', 'True', 'member2', 1_800_000_000);
  rendered(await hubPass(repo, { cache }));
  const renewed = generateSshKey('gitfleet-agent@member2-renewed');
  signers.set('renewed2', signerOfText(renewed.privateKey, 'renewed2'));
  commitChange(repo, "member2's key revoked, a new one registered", (work) =>
    writeFileSync(join(work, 'clusters/member2.yaml'), cluster('member2', renewed.publicLine)),
  );
  // The new agent's clock is behind the old report's: its report is still the one read.
  await report(repo, 'member2', 'False', 'renewed2', 1_700_000_100);
  const pass = rendered(await hubPass(repo, { cache }));
  assert.deepEqual(
    pass.diagnostics.filter((d) => d.code === 'StatusRefused'),
    [],
  );
  assert.match(taintsOf(repo, 'member2') ?? '', /cluster\.karmada\.io\/not-ready/);
});

test('A forged head with no signed report below it: no report of the cluster is read at all.', async () => {
  const repo = fleet({ keyed: true });
  rendered(await hubPass(repo));
  await report(repo, 'member1', 'True', 'member1');
  await report(repo, 'member2', 'False', 'member1');
  const pass = rendered(await hubPass(repo));
  const warning = pass.diagnostics.find((d) => d.code === 'StatusRefused');
  assert.match(warning?.message ?? '', /the hub reads no report of member2/);
  assert.equal(taintsOf(repo, 'member2'), undefined);
});

test('A fleet registered without keys is read as before, unverified, with no diagnostic at every pass.', async () => {
  const repo = fleet({ keyed: false });
  rendered(await hubPass(repo));
  await report(repo, 'member1', 'True', undefined);
  await report(repo, 'member2', 'False', undefined);
  const pass = rendered(await hubPass(repo));
  assert.deepEqual(
    pass.diagnostics.filter((d) => d.code === 'StatusUnverified'),
    [],
    'a fleet that signs nothing is not told so at every pass',
  );
  assert.match(taintsOf(repo, 'member2') ?? '', /cluster\.karmada\.io\/not-ready/);
});

test('In a fleet where some clusters have keys, one registered without is read unverified, and an info diagnostic says so.', async () => {
  const repo = fleet({ keyed: 'member1' });
  rendered(await hubPass(repo));
  await report(repo, 'member1', 'True', 'member1');
  await report(repo, 'member2', 'False', undefined);
  const pass = rendered(await hubPass(repo));
  const info = pass.diagnostics.filter((d) => d.code === 'StatusUnverified');
  assert.deepEqual(
    info.map((d) => [d.severity, d.cluster]),
    [['info', 'member2']],
  );
  assert.match(info[0]!.message, /names no signing key .*read unverified/);
  assert.match(taintsOf(repo, 'member2') ?? '', /cluster\.karmada\.io\/not-ready/);
});

test("An agent key leaked and revoked (its registration now names a new key): reports it signs are ignored, the new key's are read.", async () => {
  const repo = fleet({ keyed: true });
  rendered(await hubPass(repo));
  await report(repo, 'member1', 'True', 'member1');
  const good = await report(repo, 'member2', 'True', 'member2');
  rendered(await hubPass(repo));
  const renewed = generateSshKey('gitfleet-agent@member2-new');
  commitChange(repo, "member2's key leaked: revoked, a new one registered", (work) =>
    writeFileSync(join(work, 'clusters/member2.yaml'), cluster('member2', renewed.publicLine)),
  );
  const revoked = rendered(await hubPass(repo));
  // The last report the old key signed is no longer believed either: nothing of member2 is read.
  assert.match(
    revoked.diagnostics.find((d) => d.code === 'StatusRefused')?.message ?? '',
    /no report of member2/,
  );
  const leaked = await report(repo, 'member2', 'False', 'member2');
  const pass = await hubPass(repo);
  assert.match(
    pass.statusRefused?.['member2'] ?? '',
    new RegExp(`commit ${leaked.slice(0, 12)}: UnknownKey`),
  );
  assert.equal(taintsOf(repo, 'member2'), undefined, 'no taint from the leaked key');
  assert.doesNotMatch(
    git(repo, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']),
    new RegExp(`${leaked}|${good}`),
  );
  signers.set('renewed', signerOfText(renewed.privateKey, 'renewed'));
  await report(repo, 'member2', 'False', 'renewed');
  rendered(await hubPass(repo));
  assert.notEqual(
    taintsOf(repo, 'member2'),
    undefined,
    'a report the new key signed is read: Ready=False taints member2',
  );
});
