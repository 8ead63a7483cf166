// The registration's gitfleet.io/signing-key annotation as the loader reads it: one ssh-ed25519
// public key line is the cluster's key; anything else is a load error naming the annotation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLoadError, loadFleet } from '../../../src/core/load/load-fleet.js';

const key =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGmXo8Ogaqd1uF0fYJ2N6mD7Dqk6tYlHq5Q3Q1yXkVbN gitfleet-agent@member1';
const registration = (annotation: string | undefined) => [
  {
    path: 'clusters/member1.yaml',
    content: `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member1
${annotation === undefined ? '' : `  annotations:\n    gitfleet.io/signing-key: ${JSON.stringify(annotation)}\n`}`,
  },
];

const cases: { name: string; given: string | undefined; want: { key?: string; error?: RegExp } }[] = [
  { name: 'An ed25519 key line is the cluster’s signing key.', given: key, want: { key } },
  { name: 'No annotation: no key (the reports are read unverified).', given: undefined, want: {} },
  {
    name: 'An RSA key is refused: the hub verifies ed25519 only.',
    given: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ member1',
    want: {
      error: /clusters\/member1.yaml.*gitfleet.io\/signing-key.*not an OpenSSH ssh-ed25519 public key line/s,
    },
  },
  {
    name: 'A private key pasted by mistake is refused, and not repeated in the error.',
    given:
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----',
    want: { error: /not an OpenSSH ssh-ed25519 public key line \(a private key/ },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const loaded = loadFleet(registration(c.given), { sourceBranch: 'main' });
    if (c.want.error) {
      assert.equal(loaded.ok, false);
      const text = loaded.ok ? '' : loaded.errors.map(formatLoadError).join('\n');
      assert.match(text, c.want.error);
      assert.ok(!text.includes('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ'), text);
      return;
    }
    assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.map(formatLoadError).join('\n'));
    assert.equal(loaded.fleet.clusters[0]!.signingKey, c.want.key);
  });
}
