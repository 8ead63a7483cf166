// Loading ResourceInterpreterCustomizations (config.karmada.io/v1alpha1): the CRD's fields
// (pkg/apis/config/v1alpha1/resourceinterpretercustomization_types.go), strictly; one script
// per target and operation across customizations, InterpretDependency excepted (the webhook's
// validateCustomizationRule, pkg/webhook/resourceinterpretercustomization/helper.go); never a
// template to propagate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterDoc, fileOf, mustFail, mustLoad } from './documents.js';

function customization(name: string, rules: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'config.karmada.io/v1alpha1',
    kind: 'ResourceInterpreterCustomization',
    metadata: { name },
    spec: { target: { apiVersion: 'example.com/v1', kind: 'WorkerPool' }, customizations: rules, ...extra },
  };
}

const health = { healthInterpretation: { luaScript: 'function InterpretHealth(o) return true end' } };

test('A customization loads as the interpreter configuration and is not a template.', () => {
  const fleet = mustLoad([
    fileOf('interpreter.yaml', customization('pool', health)),
    fileOf('c.yaml', clusterDoc('m1')),
  ]);
  assert.deepEqual(fleet.templates, []);
  assert.deepEqual(fleet.interpreterCustomizations, [
    {
      name: 'pool',
      target: { apiVersion: 'example.com/v1', kind: 'WorkerPool' },
      scripts: { InterpretHealth: 'function InterpretHealth(o) return true end' },
      source: { file: 'interpreter.yaml', index: 0, line: 1 },
    },
  ]);
});

test('A fleet without customizations has no interpreterCustomizations field.', () => {
  const fleet = mustLoad([fileOf('c.yaml', clusterDoc('m1'))]);
  assert.equal('interpreterCustomizations' in fleet, false);
});

const invalid: { name: string; doc: unknown; want: RegExp }[] = [
  {
    name: 'A misspelled rule is an error naming the rule it means.',
    doc: customization('pool', { healthInterpretaton: { luaScript: 'x' } }),
    want: /spec\.customizations\.healthInterpretaton: unknown field; did you mean healthInterpretation\?/,
  },
  {
    name: 'A misspelled luaScript is an error.',
    doc: customization('pool', { healthInterpretation: { luaScipt: 'x' } }),
    want: /spec\.customizations\.healthInterpretation\.luaScipt: unknown field; did you mean luaScript\?/,
  },
  {
    name: 'A rule without luaScript is an error.',
    doc: customization('pool', { retention: {} }),
    want: /spec\.customizations\.retention\.luaScript: is required and must be a string/,
  },
  {
    name: 'A target without kind is an error.',
    doc: {
      ...customization('pool', health),
      spec: { target: { apiVersion: 'example.com/v1' }, customizations: health },
    },
    want: /spec\.target\.kind: is required/,
  },
  {
    name: 'An unknown field in spec is an error.',
    doc: customization('pool', health, { targets: [] }),
    want: /spec\.targets: unknown field; did you mean target\?/,
  },
  {
    name: 'A namespace is an error: the kind is cluster-scoped.',
    doc: { ...customization('pool', health), metadata: { name: 'pool', namespace: 'shop' } },
    want: /metadata\.namespace: must be empty: the kind is cluster-scoped/,
  },
];

for (const c of invalid) {
  test(c.name, () => {
    const errors = mustFail([fileOf('interpreter.yaml', c.doc)]);
    for (const e of errors) {
      // Unknown fields are the strict-field pass's (UnknownField); the rest the parser's.
      assert.equal(e.code, /unknown field/.test(e.message) ? 'UnknownField' : 'InvalidPolicy', e.message);
      assert.match(e.message, /^ResourceInterpreterCustomization\/pool: /);
    }
    assert.ok(
      errors.some((e) => c.want.test(e.message)),
      JSON.stringify(errors.map((e) => e.message)),
    );
  });
}

test('Two customizations of one target scripting the same operation conflict, as the webhook refuses.', () => {
  const errors = mustFail([
    fileOf('a.yaml', customization('a-pool', health)),
    fileOf('b.yaml', customization('b-pool', health)),
  ]);
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.file, 'b.yaml');
  assert.match(
    errors[0]!.message,
    /ResourceInterpreterCustomization\/b-pool: conflicts with InterpreterOperation InterpretHealth of ResourceInterpreterCustomization\/a-pool/,
  );
});

test('Several customizations may each script InterpretDependency, and an empty script conflicts with nothing.', () => {
  const deps = (script: string) => ({ dependencyInterpretation: { luaScript: script } });
  const fleet = mustLoad([
    fileOf('a.yaml', customization('a', { ...deps('function GetDependencies(o) return {} end'), ...health })),
    fileOf('b.yaml', customization('b', { ...deps('function GetDependencies(o) return {} end') })),
    fileOf('c.yaml', customization('c', { healthInterpretation: { luaScript: '' } })),
  ]);
  assert.equal(fleet.interpreterCustomizations?.length, 3);
});
