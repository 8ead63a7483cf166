import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSelectorText, type SelectorTextResult } from '../../../src/core/status/parse-selector-text.js';

const cases: { name: string; given: string; want: SelectorTextResult }[] = [
  {
    name: 'equality requirements become matchLabels',
    given: 'app=web, tier==front',
    want: { ok: true, selector: { matchLabels: { app: 'web', tier: 'front' } } },
  },
  {
    name: 'set, inequality and existence requirements become expressions',
    given: 'env in (prod, staging),team notin (x),owner!=bob,critical,!legacy',
    want: {
      ok: true,
      selector: {
        matchExpressions: [
          { key: 'env', operator: 'In', values: ['prod', 'staging'] },
          { key: 'team', operator: 'NotIn', values: ['x'] },
          { key: 'owner', operator: 'NotIn', values: ['bob'] },
          { key: 'critical', operator: 'Exists' },
          { key: 'legacy', operator: 'DoesNotExist' },
        ],
      },
    },
  },
  {
    name: 'a prefixed key is a key',
    given: 'app.kubernetes.io/name=shop',
    want: { ok: true, selector: { matchLabels: { 'app.kubernetes.io/name': 'shop' } } },
  },
  {
    name: 'a second value for the same key must hold too',
    given: 'app=web,app=api',
    want: {
      ok: true,
      selector: {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'app', operator: 'In', values: ['api'] }],
      },
    },
  },
  { name: 'an empty selector matches everything', given: '', want: { ok: true, selector: {} } },
  {
    name: 'garbage is an error naming the part',
    given: 'app=web,=x',
    want: { ok: false, message: 'invalid selector "app=web,=x": cannot read "=x"' },
  },
];

for (const { name, given, want } of cases) {
  test(name, () => assert.deepEqual(parseSelectorText(given), want));
}
