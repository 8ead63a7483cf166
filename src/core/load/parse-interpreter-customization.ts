// A ResourceInterpreterCustomization (config.karmada.io/v1alpha1, cluster-scoped): Lua scripts
// that tell Karmada how to read a custom kind (replicas, health, status, dependencies) and how
// to write it (revised replicas, retained fields). Its fields are checked as its CRD's
// structural schema would check them under kubectl's strict field validation: this parser
// checks the values below, and the strict-field pass (schema/) refuses every other field.
//
// | field                                      | rule                                               |
// |--------------------------------------------|----------------------------------------------------|
// | metadata.namespace                         | none: the kind is cluster-scoped                   |
// | spec.target.apiVersion, spec.target.kind   | required strings                                   |
// | spec.customizations                        | required; each rule below is optional              |
// | spec.customizations.<rule>.luaScript       | required string (the rules of interpreter-customization.ts) |
//
// Rules across customizations (the webhook's validateCustomizationRule,
// pkg/webhook/resourceinterpretercustomization/helper.go) are checked by checkCustomizationConflicts.
import {
  interpreterOperations,
  type InterpreterCustomization,
  type InterpreterOperation,
} from '../model/interpreter-customization.js';
import { isMap } from '../model/kube-object.js';
import type { SourceLocation } from '../model/source-location.js';
import { childPath, readMap, readRequiredString, type Issues } from './field-reader.js';

const OPERATIONS = Object.keys(interpreterOperations) as InterpreterOperation[];
const RULE_OPERATION = new Map(OPERATIONS.map((op) => [interpreterOperations[op].rule, op]));

/** Returns the typed customization, or the list of problems found in it. */
export function parseInterpreterCustomization(doc: {
  object: Record<string, unknown>;
  name: string;
  source: SourceLocation;
}): { ok: true; customization: InterpreterCustomization } | { ok: false; issues: Issues } {
  const issues: Issues = [];
  const metadata = doc.object['metadata'];
  if (isMap(metadata) && typeof metadata['namespace'] === 'string' && metadata['namespace'] !== '')
    issues.push({ path: 'metadata.namespace', message: 'must be empty: the kind is cluster-scoped' });
  const spec = readMap(doc.object['spec'], 'spec', issues);
  if (spec === undefined) {
    if (doc.object['spec'] === undefined || doc.object['spec'] === null)
      issues.push({ path: 'spec', message: 'is required' });
    return { ok: false, issues };
  }
  const target = readTarget(spec['target'], issues);
  const scripts = readScripts(spec['customizations'], issues);
  if (issues.length > 0 || target === undefined) return { ok: false, issues };
  return { ok: true, customization: { name: doc.name, target, scripts, source: doc.source } };
}

function readTarget(value: unknown, issues: Issues): InterpreterCustomization['target'] | undefined {
  const target = readMap(value, 'spec.target', issues);
  if (target === undefined) {
    if (value === undefined || value === null) issues.push({ path: 'spec.target', message: 'is required' });
    return undefined;
  }
  const apiVersion = readRequiredString(target['apiVersion'], 'spec.target.apiVersion', issues);
  const kind = readRequiredString(target['kind'], 'spec.target.kind', issues);
  return apiVersion === undefined || kind === undefined ? undefined : { apiVersion, kind };
}

function readScripts(value: unknown, issues: Issues): InterpreterCustomization['scripts'] {
  const scripts: InterpreterCustomization['scripts'] = {};
  const rules = readMap(value, 'spec.customizations', issues);
  if (rules === undefined) {
    if (value === undefined || value === null)
      issues.push({ path: 'spec.customizations', message: 'is required' });
    return scripts;
  }
  for (const [field, rule] of Object.entries(rules)) {
    const path = childPath('spec.customizations', field);
    const operation = RULE_OPERATION.get(field);
    // An unknown rule is the strict-field pass's error (schema/), not this parser's.
    if (operation === undefined) continue;
    if (rule === undefined || rule === null) continue;
    const body = readMap(rule, path, issues);
    if (body === undefined) continue;
    const script = body['luaScript'];
    if (typeof script !== 'string') {
      issues.push({ path: childPath(path, 'luaScript'), message: 'is required and must be a string' });
      continue;
    }
    scripts[operation] = script;
  }
  return scripts;
}

/**
 * Returns one problem per pair of customizations of the same target that both script the same
 * operation (other than InterpretDependency, which may have several scripts), as Karmada's
 * admission webhook refuses the second one. `customizations` are in any order; the message
 * names the one that sorts first by name as the existing one.
 */
export function checkCustomizationConflicts(
  customizations: readonly InterpreterCustomization[],
): { customization: InterpreterCustomization; message: string }[] {
  const sorted = [...customizations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const problems: { customization: InterpreterCustomization; message: string }[] = [];
  const owners = new Map<string, string>();
  for (const c of sorted) {
    for (const [operation, script] of Object.entries(c.scripts)) {
      if (operation === 'InterpretDependency' || script === '') continue;
      const key = `${c.target.apiVersion}\u0000${c.target.kind}\u0000${operation}`;
      const owner = owners.get(key);
      if (owner === undefined) owners.set(key, c.name);
      else
        problems.push({
          customization: c,
          message: `conflicts with InterpreterOperation ${operation} of ResourceInterpreterCustomization/${owner}: one customization per target and operation`,
        });
    }
  }
  return problems;
}
