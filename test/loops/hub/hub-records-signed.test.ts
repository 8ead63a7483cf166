// Records only the hub signed (loops/hub/trust-hub-records.ts): with a signing key, a bindings
// record the hub's keys did not sign moves nothing. A hand-edited rollout record saying the
// rollout is complete while its canary soaks, pushed unsigned, signed with another key, or
// carrying a signature copied from the hub's own head: each is named (commit, branch, why), the
// pass goes on from the newest record the hub signed, and writes a signed record over it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  commitChange,
  git,
  hubPass,
  rendered,
  removeFleetRepos,
  withCopiedSignature,
  type FleetRepo,
} from './hub-fixture.js';
import {
  at,
  canary,
  fleetWithStrategy,
  imageOn,
  later,
  record,
  recordPath,
  report,
  setImage,
  strategy,
  t0,
} from './rollout-fixture.js';
import { madeKey, makeSshKey, missingTool, writeAllowedSigners } from '../../support/signing-keys.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { loadTrustedKeys } from '../../../src/adapters/signing/load-trusted-keys.js';
import { maxRecordWalk } from '../../../src/loops/hub/trust-hub-records.js';

after(() => {
  removeFleetRepos();
  removeTempDirs();
});

const bindings = 'refs/heads/gitfleet/bindings';

/** Puts on the bindings branch a commit whose rollout record says Complete, with the head's message (signed with `key` when given); returns it. */
function forgeComplete(repo: FleetRepo, sign: { key?: string; copyFrom?: string } = {}): string {
  const head = git(repo, ['rev-parse', bindings]);
  const text = git(repo, ['show', `${head}:${recordPath}`]).replace(/^phase: \w+$/m, 'phase: Complete');
  const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: `${text}\n` });
  const index = join(tempDir('index'), 'index');
  const env = { GIT_INDEX_FILE: index };
  git(repo, ['read-tree', head], { env });
  git(repo, ['update-index', '--cacheinfo', `100644,${blob},${recordPath}`], { env });
  const tree = git(repo, ['write-tree'], { env });
  const message = git(repo, ['log', '-1', '--format=%B', head]);
  const signing = sign.key ? ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${sign.key}`] : [];
  let forged = git(repo, [
    ...signing,
    'commit-tree',
    ...(sign.key ? ['-S'] : []),
    tree,
    '-p',
    head,
    '-m',
    message,
  ]);
  if (sign.copyFrom) forged = withCopiedSignature(repo, forged, sign.copyFrom);
  git(repo, ['update-ref', bindings, forged, head]);
  return forged;
}

test(
  'A hand-edited rollout record moves no cluster: unsigned, signed with another key, or with a copied signature, it is named and written over by a signed one.',
  { skip: missingTool('ssh-keygen') },
  async () => {
    const hub = await madeKey('hub');
    const mallory = makeSshKey({ comment: 'mallory' });
    const pass = (ms: number) => hubPass(repo, { now: at(ms), signer: hub.signer });
    const repo = await fleetWithStrategy(strategy({ soak: 3600 }));
    commitChange(repo, 'web 1.9.0', (work) => setImage(work, '1.9.0'));
    rendered(await pass(t0));
    await report(repo, canary, 'Healthy');
    rendered(await pass(t0 + 1_000));
    assert.equal(record(repo)!.phase, 'Progressing', 'the canary soaks for an hour');
    let now = t0 + 2_000;
    const forgeries: [string, () => string, RegExp][] = [
      ['unsigned', () => forgeComplete(repo), /: unsigned\)/],
      ['signed by another key', () => forgeComplete(repo, { key: mallory.privateFile }), /UnknownKey/],
      [
        "with the hub's signature copied",
        () => forgeComplete(repo, { copyFrom: git(repo, ['rev-parse', bindings]) }),
        /BadSignature/,
      ],
    ];
    for (const [name, forge, why] of forgeries) {
      const signedBefore = git(repo, ['rev-parse', bindings]);
      const forged = forge();
      assert.equal(record(repo)!.phase, 'Complete', `${name}: the branch holds the forgery`);
      const result = rendered(await pass((now += 1_000)));
      for (const c of later) assert.equal(imageOn(repo, c), '1.8.0', `${name}: ${c} keeps what it runs`);
      const warning = result.diagnostics.find((d) => d.code === 'RecordUntrusted');
      assert.ok(warning, `${name}: ${JSON.stringify(result.diagnostics)}`);
      assert.equal(warning.severity, 'warning');
      assert.match(
        warning.message,
        new RegExp(`^gitfleet/bindings at ${forged.slice(0, 12)}: not signed by the hub's keys`),
      );
      assert.match(warning.message, why);
      assert.match(
        warning.message,
        new RegExp(`goes on from ${signedBefore.slice(0, 12)}, the newest record it signed`),
      );
      // The pass wrote a signed record over it, from the trusted state: still soaking.
      assert.equal(git(repo, ['rev-parse', `${bindings}~1`]), forged);
      assert.equal(record(repo)!.phase, 'Progressing', name);
      const again = await pass((now += 1_000));
      assert.ok(
        again.type === 'upToDate' ||
          (again.type === 'rendered' && !again.diagnostics.some((d) => d.code === 'RecordUntrusted')),
        `${name}: the new head is the hub's`,
      );
    }
  },
);

test('No record the hub signed within the walk: the hub goes on as on a new bindings branch, never from the unsigned records.', async () => {
  const hub = await madeKey('hub');
  const repo = await fleetWithStrategy(strategy({ soak: 3600 }));
  commitChange(repo, 'web 1.9.0', (work) => setImage(work, '1.9.0'));
  rendered(await hubPass(repo, { now: at(t0), signer: hub.signer }));
  await report(repo, canary, 'Healthy');
  rendered(await hubPass(repo, { now: at(t0 + 1_000), signer: hub.signer }));
  const forged = forgeComplete(repo);
  const message = git(repo, ['log', '-1', '--format=%B', forged]);
  let head = forged;
  for (let i = 0; i < maxRecordWalk; i++)
    head = git(repo, ['commit-tree', `${forged}^{tree}`, '-p', head, '-m', message]);
  git(repo, ['update-ref', bindings, head, forged]);
  const result = rendered(await hubPass(repo, { now: at(t0 + 2_000), signer: hub.signer }));
  assert.match(
    result.diagnostics.find((d) => d.code === 'RecordUntrusted')?.message ?? '',
    new RegExp(
      `no record below it within ${maxRecordWalk} commits is signed by them either: the hub goes on as on a new bindings branch`,
    ),
  );
  for (const c of later) assert.equal(imageOn(repo, c), '1.8.0', `${c} keeps what it runs`);
  assert.notEqual(record(repo)?.phase, 'Complete');
});

test("During a rotation the records the earlier key signed stay the hub's own with --trusted-keys; without it they are not trusted.", async () => {
  const [oldKey, newKey] = [await madeKey('old'), await madeKey('new')];
  const repo = await fleetWithStrategy(strategy({ soak: 3600 }));
  commitChange(repo, 'web 1.9.0', (work) => setImage(work, '1.9.0'));
  rendered(await hubPass(repo, { now: at(t0), signer: oldKey.signer }));
  await report(repo, canary, 'Healthy');
  rendered(await hubPass(repo, { now: at(t0 + 1_000), signer: oldKey.signer }));
  const file = writeAllowedSigners([oldKey.allowed('hub@gitfleet.invalid')]);
  const trustedKeys = (await loadTrustedKeys(file)).verifier;
  const rotated = rendered(await hubPass(repo, { now: at(t0 + 2_000), signer: newKey.signer, trustedKeys }));
  assert.ok(
    !rotated.diagnostics.some((d) => d.code === 'RecordUntrusted'),
    JSON.stringify(rotated.diagnostics),
  );
  assert.equal(record(repo)!.phase, 'Progressing');
  assert.equal(
    record(repo)!.healthySince,
    new Date(t0 + 1_000).toISOString(),
    'the soak goes on where it was',
  );

  const other = await fleetWithStrategy(strategy({ soak: 3600 }));
  rendered(await hubPass(other, { now: at(t0), signer: oldKey.signer }));
  const untrusted = rendered(await hubPass(other, { now: at(t0 + 1_000), signer: newKey.signer }));
  assert.match(untrusted.diagnostics.find((d) => d.code === 'RecordUntrusted')?.message ?? '', /UnknownKey/);
});

test('Turning signing on with --adopt-records: the unsigned head it names is read as the hub’s own, so a rollout in progress carries on; another head is not trusted.', async () => {
  const hub = await madeKey('hub');
  const start = async (message: string) => {
    const repo = await fleetWithStrategy(strategy({ soak: 3600 }));
    commitChange(repo, message, (work) => setImage(work, '1.9.0'));
    rendered(await hubPass(repo, { now: at(t0) }));
    await report(repo, canary, 'Healthy');
    rendered(await hubPass(repo, { now: at(t0 + 1_000) }));
    return repo;
  };
  const repo = await start('web 1.9.0');
  const head = git(repo, ['rev-parse', bindings]);
  const signed = rendered(
    await hubPass(repo, { now: at(t0 + 2_000), signer: hub.signer, adoptRecords: head }),
  );
  assert.match(
    signed.diagnostics.find((d) => d.code === 'RecordAdopted')?.message ?? '',
    new RegExp(
      `gitfleet/bindings at ${head.slice(0, 12)}: not signed .*read as the hub's own because --adopt-records names it`,
    ),
  );
  assert.ok(
    !signed.diagnostics.some((d) => d.code === 'RecordUntrusted'),
    JSON.stringify(signed.diagnostics),
  );
  assert.equal(record(repo)!.phase, 'Progressing');
  assert.equal(
    record(repo)!.healthySince,
    new Date(t0 + 1_000).toISOString(),
    'the soak goes on where it was',
  );
  assert.equal(
    git(repo, ['rev-parse', `${bindings}~1`]),
    head,
    'the signed record goes on top of the adopted one',
  );

  // The same change in another commit: a bindings head of the same kind, not the one named.
  const other = await start('web 1.9.0, again');
  const untrusted = rendered(
    await hubPass(other, { now: at(t0 + 2_000), signer: hub.signer, adoptRecords: head }),
  );
  assert.match(
    untrusted.diagnostics.find((d) => d.code === 'RecordUntrusted')?.message ?? '',
    new RegExp(`--adopt-records names ${head.slice(0, 12)}, not this head`),
  );
  assert.ok(!untrusted.diagnostics.some((d) => d.code === 'RecordAdopted'));
});
