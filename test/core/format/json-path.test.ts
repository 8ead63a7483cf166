// gitfleet's subset of Kubernetes JSONPath (core/format/json-path.ts), with missing keys an
// error as Karmada evaluates state preservation rules (pkg/util/helper/failover.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateJsonPath, parseJsonPath } from '../../../src/core/format/json-path.js';

const status = {
  availableReplicas: 3,
  ready: true,
  conditions: [
    { type: 'Available', status: 'True' },
    { type: 'Progressing', status: 'False' },
  ],
  'example.io/labels': { 'a.b': 'dotted', z: 1, a: 2 },
  empty: null,
};

function evaluate(template: string): string {
  const parsed = parseJsonPath(template);
  if (!parsed.ok) throw new Error(parsed.error);
  const value = evaluateJsonPath(parsed.parts, status);
  if (!value.ok) throw new Error(value.error);
  return value.value;
}

const values: [string, string][] = [
  ['{.availableReplicas}', '3'],
  ['{$.availableReplicas}', '3'],
  ['{ .ready }', 'true'],
  ['{.conditions[0].type}', 'Available'],
  ['{.conditions[-1].status}', 'False'],
  ["{.conditions[1]['status']}", 'False'],
  ["{['example.io/labels']['a.b']}", 'dotted'],
  ['{["example.io/labels"].z}', '1'],
  ["{['example.io/labels']}", '{"a":2,"a.b":"dotted","z":1}'],
  ['{.conditions[0]}', '{"status":"True","type":"Available"}'],
  ['{.empty}', 'null'],
  ['replicas-{.availableReplicas}-{.ready}', 'replicas-3-true'],
];

for (const [template, want] of values) {
  test(`${template} prints ${want}`, () => {
    assert.equal(evaluate(template), want);
  });
}

const failures: [string, RegExp][] = [
  ['{.readyReplicas}', /^readyReplicas is not found$/],
  ['{.availableReplicas.value}', /^value is not found$/],
  ['{.conditions[2].type}', /^array index out of bounds: index 2, length 2$/],
  ['{.ready[0]}', /^\[0\]: not a list$/],
  ['{.empty.x}', /^x is not found$/],
];

for (const [template, error] of failures) {
  test(`${template} is an error: ${error.source}`, () => {
    assert.throws(
      () => evaluate(template),
      (e: Error) => error.test(e.message),
    );
  });
}

const refused: [string, RegExp][] = [
  ['{.conditions[?(@.type=="Ready")].status}', /not in the JSONPath subset/],
  ['{.conditions[*].type}', /not in the JSONPath subset/],
  ['{..type}', /not in the JSONPath subset/],
  ['{.conditions[0:1]}', /not in the JSONPath subset/],
  ['{.availableReplicas', /unclosed \{ at character 1/],
  ['availableReplicas', /has no \{…\} path/],
  ['{}', /a path starts with \./],
];

for (const [template, error] of refused) {
  test(`${template} is refused when parsing`, () => {
    const parsed = parseJsonPath(template);
    assert.equal(parsed.ok, false);
    if (!parsed.ok) assert.match(parsed.error, error);
  });
}
