// The registration's gitfleet.io/age-recipient annotation as the loader reads it: an age1…
// recipient is the cluster's; anything else is a load error naming the annotation, and an age
// identity pasted by mistake is not repeated in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLoadError, loadFleet } from '../../../src/core/load/load-fleet.js';

const recipient = 'age1lrk975y4xqudf9cgmcqalc65d0vj048zjqv77l92uhv5pkss0dhsm7dpc3';
const identity = 'AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSKVZ5X9';
const registration = (value: string | undefined) => [
  {
    path: 'clusters/member1.yaml',
    content: `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member1\n${
      value === undefined ? '' : `  annotations:\n    gitfleet.io/age-recipient: ${JSON.stringify(value)}\n`
    }`,
  },
];

const cases: { name: string; given: string | undefined; want: { recipient?: string; error?: RegExp } }[] = [
  { name: 'An age1 recipient is the cluster’s.', given: recipient, want: { recipient } },
  {
    name: 'No annotation: no recipient (no encrypted file may be placed there).',
    given: undefined,
    want: {},
  },
  {
    name: 'Something else is refused, naming the annotation.',
    given: 'ssh-ed25519 AAAA',
    want: {
      error: /clusters\/member1.yaml.*gitfleet.io\/age-recipient.*not an age recipient \(age1\.\.\.\)/s,
    },
  },
  {
    name: 'An age identity pasted by mistake is refused, and not repeated in the error.',
    given: identity,
    want: { error: /an age identity \(a private key\), which never belongs in the fleet repository/ },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const loaded = loadFleet(registration(c.given), { sourceBranch: 'main' });
    if (c.want.error) {
      assert.equal(loaded.ok, false);
      const text = loaded.ok ? '' : loaded.errors.map(formatLoadError).join('\n');
      assert.match(text, c.want.error);
      assert.ok(!text.includes(identity), text);
      return;
    }
    assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.map(formatLoadError).join('\n'));
    assert.equal(loaded.fleet.clusters[0]!.ageRecipient, c.want.recipient);
  });
}
