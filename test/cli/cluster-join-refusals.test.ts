// `gitfleet cluster join` refuses what it cannot do faithfully, before it writes anything: no
// review branch is created, no key file and no overlay are left behind.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './run-cli.js';
import { author, fleetClone, type FleetClone } from './cluster-fixture.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { madeKey } from '../support/signing-keys.js';
import { generateSshKey } from '../../src/adapters/signing/generate-ssh-key.js';

after(removeTempDirs);

function join2(clone: FleetClone, name: string, extra: string[]) {
  return runCli([
    'cluster',
    'join',
    name,
    '--repo',
    clone.dir,
    '--hub-keys',
    clone.hubKeys,
    ...author,
    ...extra,
  ]);
}

function branches(clone: FleetClone): string {
  return clone.git('branch', '--format=%(refname:short)');
}

const cases: {
  name: string;
  cluster: string;
  args: (clone: FleetClone, out: string) => string[];
  code: number;
  message: RegExp;
}[] = [
  {
    name: 'a cluster registered already',
    cluster: 'member1',
    args: (_, out) => ['-o', out],
    code: 1,
    message: /cluster member1: registered already \(clusters\/member1.yaml/,
  },
  {
    name: 'an invalid name',
    cluster: 'Member_2',
    args: (_, out) => ['-o', out],
    code: 2,
    message: /cluster name 'Member_2': must be a lowercase RFC 1123 label/,
  },
  {
    name: 'a name over 48 characters',
    cluster: 'm'.repeat(49),
    args: (_, out) => ['-o', out],
    code: 2,
    message: /must be no more than 48 characters/,
  },
  {
    name: 'a label without a value',
    cluster: 'member2',
    args: (_, out) => ['-o', out, '--labels', 'env'],
    code: 2,
    message: /--labels: label 'env': not key=value/,
  },
  {
    name: 'a bad label key',
    cluster: 'member2',
    args: (_, out) => ['-o', out, '--labels', 'bad key=x'],
    code: 2,
    message: /label key 'bad key'/,
  },
  {
    name: 'a bad label value',
    cluster: 'member2',
    args: (_, out) => ['-o', out, '--labels', 'env=pr od'],
    code: 2,
    message: /label env: value 'pr od'/,
  },
  {
    name: 'a label given twice',
    cluster: 'member2',
    args: (_, out) => ['-o', out, '--labels', 'env=a,env=b'],
    code: 2,
    message: /label env: given twice/,
  },
  {
    name: 'the source branch as the review branch',
    cluster: 'member2',
    args: (_, out) => ['-o', out, '--branch', 'main'],
    code: 2,
    message: /--branch main: the source branch/,
  },
  {
    name: 'an output directory inside the fleet repository',
    cluster: 'member2',
    args: (clone) => ['-o', join(clone.dir, 'overlay')],
    code: 1,
    message: /inside the fleet repository/,
  },
  {
    name: 'a registration file that exists',
    cluster: 'member2',
    args: (_, out) => ['-o', out, '--file', 'clusters/member1.yaml'],
    code: 1,
    message: /clusters\/member1.yaml: exists already/,
  },
];

for (const c of cases) {
  test(`cluster join refuses ${c.name}, and writes nothing.`, async () => {
    const clone = await fleetClone();
    const out = join(tempDir('overlay'), 'o');
    const run = await join2(clone, c.cluster, c.args(clone, out));
    assert.equal(run.code, c.code, run.stdout);
    assert.match(run.stderr, c.message);
    assert.equal(branches(clone), 'main');
    assert.equal(existsSync(out), false);
    assert.equal(clone.git('status', '--porcelain'), '');
  });
}

test('cluster join refuses an output directory that is not empty, and leaves its files as they were.', async () => {
  const clone = await fleetClone();
  const out = tempDir('overlay');
  writeFileSync(join(out, 'kustomization.yaml'), 'mine\n');
  const run = await join2(clone, 'member2', ['-o', out]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /not empty \(kustomization.yaml\)/);
  assert.deepEqual(readdirSync(out), ['kustomization.yaml']);
  assert.equal(branches(clone), 'main');
});

test('cluster join never overwrites a key file, and then proposes nothing.', async () => {
  const clone = await fleetClone();
  const keyFile = join(tempDir('keys'), 'member2.key');
  writeFileSync(keyFile, 'an older key\n');
  const run = await join2(clone, 'member2', ['--key-file', keyFile]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /member2.key: exists already; nothing is overwritten/);
  assert.equal(branches(clone), 'main');
});

test('cluster join refuses a review branch that exists, before writing the key.', async () => {
  const clone = await fleetClone();
  clone.git('branch', 'cluster-join/member2');
  const out = join(tempDir('overlay'), 'o');
  const run = await join2(clone, 'member2', ['-o', out]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--branch cluster-join\/member2: exists already/);
  assert.equal(existsSync(out), false);
});

test('cluster join refuses hub keys that hold a private key, or no key.', async () => {
  const clone = await fleetClone();
  const dir = tempDir('hubkeys');
  const secret = join(dir, 'secret');
  writeFileSync(secret, generateSshKey('hub').privateKey);
  const empty = join(dir, 'empty');
  writeFileSync(empty, '# nothing\n');
  for (const [file, message] of [
    [secret, /holds a private key; trusted keys are public keys only/],
    [empty, /no key/],
  ] as const) {
    const run = await runCli([
      'cluster',
      'join',
      'member2',
      '--repo',
      clone.dir,
      '--hub-keys',
      file,
      ...author,
    ]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, message);
  }
  assert.equal(branches(clone), 'main');
});

test('cluster join refuses a fleet that does not load at the source branch, naming the file.', async () => {
  const clone = await fleetClone({ 'apps/broken.yaml': 'kind: [\n' });
  mkdirSync(join(clone.dir, 'x'), { recursive: true });
  const run = await join2(clone, 'member2', ['-o', join(tempDir('o'), 'o')]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /the fleet does not load[\s\S]*apps\/broken.yaml/);
  assert.ok((await madeKey()).publicLine);
});

test('cluster join refuses a registration path that is dirty in the work tree, and leaves the file as it was.', async () => {
  const clone = await fleetClone();
  mkdirSync(join(clone.dir, 'clusters'), { recursive: true });
  writeFileSync(join(clone.dir, 'clusters/member2.yaml'), 'a draft of mine\n');
  const out = join(tempDir('overlay'), 'o');
  const run = await join2(clone, 'member2', ['-o', out]);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /clusters\/member2.yaml: untracked in the work tree of .*; commit, move or remove it first/,
  );
  assert.equal(readFileSync(join(clone.dir, 'clusters/member2.yaml'), 'utf8'), 'a draft of mine\n');
  assert.equal(branches(clone), 'main');
  assert.equal(existsSync(out), false);
});
