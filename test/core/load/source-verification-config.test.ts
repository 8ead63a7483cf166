// The FleetConfig's spec.sourceVerification as the loader reads it: mode head (the default) or
// strict, key files as paths from the repository root; anything else is a load error naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileOf, mustFail, mustLoad } from './documents.js';

const withPolicy = (sourceVerification: unknown) => [
  fileOf('fleet.yaml', {
    apiVersion: 'gitfleet.io/v1alpha1',
    kind: 'FleetConfig',
    metadata: { name: 'fleet' },
    spec: { sourceVerification },
  }),
];

test('A policy is read with its mode and key paths; head is the default mode; no policy is none.', () => {
  const cases: { name: string; given: unknown; want: unknown }[] = [
    {
      name: 'strict with both key files',
      given: { mode: 'strict', allowedSigners: 'keys/allowed_signers', openpgpKeys: 'keys/pgp.asc' },
      want: { mode: 'strict', allowedSigners: 'keys/allowed_signers', openpgpKeys: 'keys/pgp.asc' },
    },
    {
      name: 'no mode',
      given: { allowedSigners: '.gitfleet/allowed_signers' },
      want: { mode: 'head', allowedSigners: '.gitfleet/allowed_signers' },
    },
    { name: 'an empty map (keys by the hub flags)', given: {}, want: { mode: 'head' } },
  ];
  for (const c of cases)
    assert.deepEqual(mustLoad(withPolicy(c.given)).config.sourceVerification, c.want, c.name);
  assert.equal(mustLoad([]).config.sourceVerification, undefined);
});

test('A bad mode, a path outside the repository or a field of another name is a load error naming the field.', () => {
  const cases: { given: unknown; says: RegExp }[] = [
    { given: { mode: 'tag' }, says: /spec\.sourceVerification\.mode: "tag": must be head or strict/ },
    {
      given: { allowedSigners: '../outside' },
      says: /spec\.sourceVerification\.allowedSigners: "\.\.\/outside": must not hold empty, \. or \.\. segments/,
    },
    {
      given: { allowedSigners: '/etc/keys' },
      says: /spec\.sourceVerification\.allowedSigners: "\/etc\/keys": must be a file path from the repository root/,
    },
    { given: { allowedSigner: 'keys' }, says: /allowedSigner/ },
  ];
  for (const c of cases) {
    const errors = mustFail(withPolicy(c.given));
    assert.ok(
      errors.some((e) => c.says.test(e.message)),
      errors.map((e) => e.message).join('\n'),
    );
  }
});
