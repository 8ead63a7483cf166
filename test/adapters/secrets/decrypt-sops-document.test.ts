// Decrypting SOPS files the real `sops` binary made with age recipients (test/tools/build-sops.sh),
// with our implementation of SOPS's format over age-encryption: the plaintext equals what
// `sops decrypt` gives; a wrong key, a tampered value, a changed unencrypted value under a full
// MAC, a truncated file and a cloud-KMS-only file do not decrypt, each with a reason that names
// no value; two identities (a rotation) open a file encrypted to either.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import { decryptSopsDocument } from '../../../src/adapters/secrets/decrypt-sops-document.js';
import { readAgeIdentities, type AgeIdentity } from '../../../src/adapters/secrets/age-keyring.js';
import { readSopsMetadata } from '../../../src/core/secrets/sops-metadata.js';
import { KUBE_YAML_SCHEMA } from '../../../src/core/load/kube-yaml-schema.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { anAgeKey, sopsBin, sopsDecrypt, sopsEncrypt } from '../../support/sops-tools.js';
import { removeTempDirs } from '../../support/temp-dirs.js';

after(removeTempDirs);
const tools = sopsBin();
const skip = 'skip' in tools ? tools.skip : false;
const bin = 'dir' in tools ? tools.dir : '';
const K8S_REGEX = ['--encrypted-regex', '^(data|stringData)$'];

const secret = `apiVersion: v1
kind: Secret
metadata:
  name: db-credentials
  namespace: shop
  labels:
    app: shop
type: Opaque
stringData:
  username: shop
  password: s3cr3t-horse-battery
  empty: ""
data:
  token: c3VwZXItc2VjcmV0LXRva2Vu
`;

function parse(text: string): KubeObject {
  return yaml.load(text, { schema: KUBE_YAML_SCHEMA }) as KubeObject;
}

async function keyring(...identities: string[]): Promise<AgeIdentity[]> {
  return readAgeIdentities(`# test keys\n${identities.join('\n')}\n`, 'test-keys');
}

test(
  'a Secret sops encrypted to an age recipient decrypts to what sops decrypt gives',
  { skip },
  async () => {
    const key = await anAgeKey();
    const encrypted = sopsEncrypt(bin, secret, { recipients: [key.recipient], args: K8S_REGEX });
    assert.doesNotMatch(encrypted, /s3cr3t-horse-battery/);
    const result = await decryptSopsDocument(parse(encrypted), await keyring(key.identity));
    assert.ok(result.ok, result.ok ? '' : result.reason);
    assert.deepEqual(result.object, parse(sopsDecrypt(bin, encrypted, key.identity)));
    assert.equal(result.object['sops'], undefined);
    assert.deepEqual(result.values.sort(), ['c3VwZXItc2VjcmV0LXRva2Vu', 's3cr3t-horse-battery', 'shop']);
  },
);

test(
  'every value type and list sops encrypts with its default rules decrypts and verifies',
  { skip },
  async () => {
    const key = await anAgeKey();
    const doc =
      'name: x\ncount: 42\nratio: 1.5\nenabled: true\noff: false\nlist:\n  - a\n  - 7\n  - nested: b\nmap:\n  deep:\n    deeper: c\n';
    const encrypted = sopsEncrypt(bin, doc, { recipients: [key.recipient] });
    const result = await decryptSopsDocument(parse(encrypted) as KubeObject, await keyring(key.identity));
    assert.ok(result.ok, result.ok ? '' : result.reason);
    assert.deepEqual(result.object, parse(sopsDecrypt(bin, encrypted, key.identity)));
  },
);

for (const [rule, args, plainPath] of [
  ['encrypted_suffix', ['--encrypted-suffix', 'Secret'], 'visible'],
  ['unencrypted_suffix', ['--unencrypted-suffix', '_plain'], 'visible_plain'],
  ['unencrypted_regex', ['--unencrypted-regex', '^visible'], 'visible'],
] as const) {
  test(`a file made with ${rule} decrypts, its plain values left as they are`, { skip }, async () => {
    const key = await anAgeKey();
    const doc = `${plainPath}: in the clear\npasswordSecret: hidden-value\n`;
    const encrypted = sopsEncrypt(bin, doc, { recipients: [key.recipient], args: [...args] });
    assert.match(encrypted, /in the clear/);
    assert.doesNotMatch(encrypted, /hidden-value/);
    const result = await decryptSopsDocument(parse(encrypted), await keyring(key.identity));
    assert.ok(result.ok, result.ok ? '' : result.reason);
    assert.equal(result.object['passwordSecret'], 'hidden-value');
  });
}

test('a file not encrypted to the agent key does not decrypt, naming recipients only', { skip }, async () => {
  const [theirs, ours] = [await anAgeKey(), await anAgeKey()];
  const encrypted = sopsEncrypt(bin, secret, { recipients: [theirs.recipient], args: K8S_REGEX });
  const result = await decryptSopsDocument(parse(encrypted), await keyring(ours.identity));
  assert.equal(result.ok, false);
  assert.match(
    result.ok ? '' : result.reason,
    new RegExp(`not encrypted to this agent's age key \\(${ours.recipient}\\).*${theirs.recipient}`),
  );
});

test(
  'two identities during a rotation open files encrypted to the old key and to the new',
  { skip },
  async () => {
    const [old, renewed] = [await anAgeKey(), await anAgeKey()];
    const ring = await keyring(old.identity, renewed.identity);
    for (const key of [old, renewed]) {
      const encrypted = sopsEncrypt(bin, secret, { recipients: [key.recipient], args: K8S_REGEX });
      const result = await decryptSopsDocument(parse(encrypted), ring);
      assert.ok(result.ok, result.ok ? '' : result.reason);
    }
  },
);

test(
  'a tampered encrypted value does not decrypt, and the reason names its path, not a value',
  { skip },
  async () => {
    const key = await anAgeKey();
    const encrypted = parse(sopsEncrypt(bin, secret, { recipients: [key.recipient], args: K8S_REGEX }));
    const stringData = encrypted['stringData'] as Record<string, string>;
    // The password's ciphertext moved under another key: its additional data (the path) no longer matches.
    stringData['username'] = stringData['password']!;
    const result = await decryptSopsDocument(encrypted, await keyring(key.identity));
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.reason, /^stringData\.username: does not decrypt/);
  },
);

test(
  'a changed unencrypted value breaks the full MAC but not a mac_only_encrypted one',
  { skip },
  async () => {
    const key = await anAgeKey();
    for (const macOnly of [false, true]) {
      const encrypted = parse(
        sopsEncrypt(bin, secret, { recipients: [key.recipient], args: K8S_REGEX, macOnly }),
      );
      assert.equal(
        readSopsMetadata(encrypted).ok &&
          (readSopsMetadata(encrypted) as { metadata: { macOnlyEncrypted: boolean } }).metadata
            .macOnlyEncrypted,
        macOnly,
      );
      encrypted.metadata.labels = { app: 'elsewhere' };
      const result = await decryptSopsDocument(encrypted, await keyring(key.identity));
      if (macOnly) assert.ok(result.ok, result.ok ? '' : result.reason);
      else
        assert.deepEqual(result, { ok: false, reason: 'MAC mismatch: a value was changed after encryption' });
    }
  },
);

test(
  'a truncated file (no mac) and a file for cloud KMS only do not decrypt, saying why',
  { skip },
  async () => {
    const key = await anAgeKey();
    const encrypted = parse(sopsEncrypt(bin, secret, { recipients: [key.recipient], args: K8S_REGEX }));
    const sops = encrypted['sops'] as Record<string, unknown>;
    const { mac: _mac, ...withoutMac } = sops;
    const a = await decryptSopsDocument({ ...encrypted, sops: withoutMac }, await keyring(key.identity));
    assert.match(a.ok ? '' : a.reason, /no mac or lastmodified/);
    const kmsOnly = {
      ...encrypted,
      sops: { ...sops, age: undefined, kms: [{ arn: 'arn:aws:kms:eu-west-1:1:key/x', enc: 'x' }] },
    };
    const b = await decryptSopsDocument(kmsOnly as KubeObject, await keyring(key.identity));
    assert.match(b.ok ? '' : b.reason, /encrypted with only kms keys: not supported/);
  },
);

test(
  'values the hub lists as added are left out of a full MAC, but only labels, annotations, namespace',
  { skip },
  async () => {
    const key = await anAgeKey();
    const encrypted = parse(sopsEncrypt(bin, secret, { recipients: [key.recipient], args: K8S_REGEX }));
    const listed = (locations: string[][]) => ({
      ...encrypted,
      metadata: {
        ...encrypted.metadata,
        labels: { ...encrypted.metadata.labels, 'gitfleet.io/managed': 'true' },
        annotations: { 'gitfleet.io/sops-added': JSON.stringify(locations) },
      },
    });
    const good = await decryptSopsDocument(
      listed([['metadata', 'labels', 'gitfleet.io/managed']]),
      await keyring(key.identity),
    );
    assert.ok(good.ok, good.ok ? '' : good.reason);
    assert.equal(good.object.metadata.labels?.['gitfleet.io/managed'], 'true');
    assert.equal(good.object.metadata.annotations, undefined);
    const bad = await decryptSopsDocument(
      listed([['metadata', 'labels', 'gitfleet.io/managed'], ['type']]),
      await keyring(key.identity),
    );
    assert.match(bad.ok ? '' : bad.reason, /lists a value the MAC must cover/);
    const unlisted = await decryptSopsDocument(listed([]), await keyring(key.identity));
    assert.match(unlisted.ok ? '' : unlisted.reason, /MAC mismatch/);
  },
);
