// SOPS-encrypted templates through the hub's render, with files the real `sops` makes: placed
// and passed through without a key (the copy still decrypts, with our decrypter and, for a
// mac_only_encrypted file, with `sops decrypt` itself); overriders allowed where the MAC allows
// and a render error naming the file and the overrider where not; a cluster whose age key is not
// a recipient refused by name; a cloud-KMS-only file and an encrypted envelope refused at load.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import { formatLoadError, loadFleet } from '../../../src/core/load/load-fleet.js';
import { renderFleet } from '../../../src/core/render/render-fleet.js';
import { KUBE_YAML_SCHEMA } from '../../../src/core/load/kube-yaml-schema.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { decryptSopsDocument } from '../../../src/adapters/secrets/decrypt-sops-document.js';
import { readAgeIdentities } from '../../../src/adapters/secrets/age-keyring.js';
import { anAgeKey, sopsBin, sopsDecrypt, sopsEncrypt } from '../../support/sops-tools.js';
import { removeTempDirs } from '../../support/temp-dirs.js';

after(removeTempDirs);
const tools = sopsBin();
const skip = 'skip' in tools ? tools.skip : false;
const bin = 'dir' in tools ? tools.dir : '';
const K8S_REGEX = ['--encrypted-regex', '^(data|stringData)$'];
const path = 'shop/Secret/db-credentials.yaml';

const secret = (namespace = true) => `apiVersion: v1
kind: Secret
metadata:
  name: db-credentials
${namespace ? '  namespace: shop\n' : ''}  labels:
    app: shop
type: Opaque
stringData:
  password: s3cr3t-horse-battery
`;

const cluster = (name: string, recipient?: string) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: ${name}
${recipient ? `  annotations:\n    gitfleet.io/age-recipient: ${recipient}\n` : ''}`;

const policy = (clusters: string[], namespace = 'shop') => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: secrets
  namespace: ${namespace}
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: Secret
  placement:
    clusterAffinity:
      clusterNames: [${clusters.join(', ')}]
`;

const labelOverride = (field?: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: tweak
  namespace: shop
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: Secret
  overrideRules:
    - overriders:
        ${
          field === undefined
            ? 'labelsOverrider:\n          - operator: replace\n            value:\n              app: shop-eu'
            : `plaintext:\n          - operator: replace\n            path: ${field}\n            value: x`
        }
`;

function render(files: Record<string, string>) {
  const loaded = loadFleet(
    Object.entries(files).map(([p, content]) => ({ path: p, content })),
    { sourceBranch: 'main' },
  );
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.map(formatLoadError).join('\n'));
  return renderFleet({ fleet: loaded.fleet, clusterStatus: new Map(), previous: new Map() });
}

const parse = (text: string) => yaml.load(text, { schema: KUBE_YAML_SCHEMA }) as KubeObject;

test(
  'an encrypted Secret is placed and passed through, and the copy decrypts with the cluster key',
  { skip },
  async () => {
    const key = await anAgeKey();
    for (const macOnly of [false, true]) {
      const encrypted = sopsEncrypt(bin, secret(), { recipients: [key.recipient], args: K8S_REGEX, macOnly });
      const r = render({
        'secret.yaml': encrypted,
        'c.yaml': cluster('member1', key.recipient),
        'p.yaml': policy(['member1']),
      });
      const text = r.clusters.get('member1')!.files.get(path);
      assert.ok(
        text,
        `rendered: ${[...r.clusters.get('member1')!.files.keys()].join(', ')} ${JSON.stringify(r.diagnostics)}`,
      );
      assert.doesNotMatch(text, /s3cr3t-horse-battery/);
      const copy = parse(text);
      assert.equal(copy.metadata.labels?.['gitfleet.io/managed'], 'true');
      const opened = await decryptSopsDocument(copy, await readAgeIdentities(key.identity, 'k'));
      assert.ok(opened.ok, opened.ok ? '' : opened.reason);
      assert.equal(
        (opened.object['stringData'] as Record<string, string>)['password'],
        's3cr3t-horse-battery',
      );
      // mac_only_encrypted: SOPS itself decrypts the hub's copy, labels and all.
      if (macOnly) assert.match(sopsDecrypt(bin, text, key.identity), /s3cr3t-horse-battery/);
    }
  },
);

test(
  'a file without a namespace is put in default and still verifies under a full MAC',
  { skip },
  async () => {
    const key = await anAgeKey();
    const encrypted = sopsEncrypt(bin, secret(false), { recipients: [key.recipient], args: K8S_REGEX });
    const r = render({
      'secret.yaml': encrypted,
      'c.yaml': cluster('member1', key.recipient),
      'p.yaml': policy(['member1'], 'default'),
    });
    const text = r.clusters.get('member1')!.files.get('default/Secret/db-credentials.yaml')!;
    const opened = await decryptSopsDocument(parse(text), await readAgeIdentities(key.identity, 'k'));
    assert.ok(opened.ok, opened.ok ? '' : opened.reason);
    assert.equal(opened.object.metadata.namespace, 'default');
  },
);

test(
  'a label overrider works on a mac_only_encrypted file and is a render error naming it otherwise',
  { skip },
  async () => {
    const key = await anAgeKey();
    for (const macOnly of [true, false]) {
      const encrypted = sopsEncrypt(bin, secret(), { recipients: [key.recipient], args: K8S_REGEX, macOnly });
      const r = render({
        'secret.yaml': encrypted,
        'c.yaml': cluster('member1', key.recipient),
        'p.yaml': policy(['member1']),
        'o.yaml': labelOverride(),
      });
      const text = r.clusters.get('member1')!.files.get(path);
      if (macOnly) {
        assert.equal(parse(text!).metadata.labels?.['app'], 'shop-eu');
        const opened = await decryptSopsDocument(parse(text!), await readAgeIdentities(key.identity, 'k'));
        assert.ok(opened.ok, opened.ok ? '' : opened.reason);
      } else {
        assert.equal(text, undefined);
        const error = r.diagnostics.find((d) => d.severity === 'error');
        assert.match(
          error?.message ?? '',
          /^secret\.yaml: SOPS-encrypted: OverridePolicy\/shop\/tweak rule 0 changes metadata\.labels\.app, which the file's MAC covers/,
        );
      }
    }
  },
);

test(
  'an overrider touching an encrypted value is a render error naming the file and the overrider',
  { skip },
  async () => {
    const key = await anAgeKey();
    const encrypted = sopsEncrypt(bin, secret(), {
      recipients: [key.recipient],
      args: K8S_REGEX,
      macOnly: true,
    });
    const r = render({
      'secret.yaml': encrypted,
      'c.yaml': cluster('member1', key.recipient),
      'p.yaml': policy(['member1']),
      'o.yaml': labelOverride('/stringData/password'),
    });
    assert.equal(r.clusters.get('member1')!.files.get(path), undefined);
    const error = r.diagnostics.find((d) => d.severity === 'error');
    assert.equal(error?.cluster, 'member1');
    assert.match(
      error?.message ?? '',
      /^secret\.yaml: SOPS-encrypted: OverridePolicy\/shop\/tweak rule 0 changes stringData\.password, an encrypted value$/,
    );
  },
);

test('a placement onto a cluster whose age key is not a recipient is refused by name', { skip }, async () => {
  const [ours, other] = [await anAgeKey(), await anAgeKey()];
  const encrypted = sopsEncrypt(bin, secret(), { recipients: [ours.recipient], args: K8S_REGEX });
  const r = render({
    'secret.yaml': encrypted,
    'c1.yaml': cluster('member1', ours.recipient),
    'c3.yaml': cluster('member3', other.recipient),
    'c4.yaml': cluster('member4'),
    'p.yaml': policy(['member1', 'member3', 'member4']),
  });
  assert.ok(r.clusters.get('member1')!.files.get(path));
  const errors = r.diagnostics.filter((d) => d.code === 'AgeRecipientMissing');
  assert.deepEqual(
    errors.map((d) => [d.cluster, d.message]),
    [
      [
        'member3',
        "secret.yaml: shop/db-credentials is placed on member3, but member3's age key is not a recipient: run sops updatekeys (gitfleet secrets recipients member3 prints it)",
      ],
      [
        'member4',
        'secret.yaml: shop/db-credentials is placed on member4, which has no age recipient (annotation gitfleet.io/age-recipient on its Cluster): its agent could not decrypt it',
      ],
    ],
  );
});

test(
  'a file for cloud KMS only, or with its envelope encrypted, does not load, saying why',
  { skip },
  async () => {
    const key = await anAgeKey();
    const encrypted = parse(sopsEncrypt(bin, secret(), { recipients: [key.recipient], args: K8S_REGEX }));
    const sops = encrypted['sops'] as Record<string, unknown>;
    const kmsOnly = {
      ...encrypted,
      sops: { ...sops, age: undefined, kms: [{ arn: 'arn:aws:kms:eu-west-1:1:key/x', enc: 'x' }] },
    };
    const everything = sopsEncrypt(bin, secret(), { recipients: [key.recipient] });
    for (const [content, want] of [
      [
        JSON.stringify(kmsOnly),
        /Secret\/db-credentials: SOPS-encrypted, encrypted with only kms keys: not supported/,
      ],
      [everything, /SOPS-encrypted with apiVersion encrypted: the hub must read it/],
    ] as const) {
      const loaded = loadFleet([{ path: 'secret.yaml', content }], { sourceBranch: 'main' });
      assert.equal(loaded.ok, false);
      assert.match(loaded.ok ? '' : loaded.errors.map(formatLoadError).join('\n'), want);
    }
  },
);
