import * as jsyaml from 'js-yaml';
import { isMap, type KubeObject } from '../model/kube-object.js';
import type { FieldOverrideOperation, FieldOverrider } from '../model/override-policy.js';
import { KUBE_YAML_SCHEMA } from '../load/kube-yaml-schema.js';
import { applyJsonPatch } from './apply-json-patch.js';
import { parseJsonPointer, readJsonPointer } from './json-pointer.js';
import { marshalGoJson } from './marshal-go-json.js';
import { marshalGoYaml } from './marshal-go-yaml.js';
import type { OverrideOutcome } from './override-outcome.js';
import { patchObject } from './patch-object.js';

/**
 * Karmada's fieldOverrider (pkg/util/overridemanager/overridemanager.go applyFieldOverriders): the
 * value at `fieldPath` must be a string holding a JSON or YAML document (a map or a list); the
 * `json` or `yaml` operations are applied to that document as one JSON patch (`subPath` is a
 * pointer inside it), and the document is written back as a string in the same format. Karmada
 * reads YAML as go-yaml v2 does; here it is read as the fleet repo's own YAML is
 * (KUBE_YAML_SCHEMA: YAML 1.2 core plus merge keys and 0644-style octals), so unquoted
 * yes/no/on/off stay strings where Karmada would turn them into booleans.
 */
export function applyFieldOverrider(object: KubeObject, overrider: FieldOverrider): OverrideOutcome {
  const { fieldPath } = overrider;
  const tokens = parseJsonPointer(fieldPath);
  if (tokens === undefined) return { ok: false, error: `fieldPath "${fieldPath}" must start with "/"` };
  const found = readJsonPointer(object, tokens);
  if (!found.found) return { ok: false, error: `fieldPath ${fieldPath}: path not found` };
  if (typeof found.value !== 'string') {
    return {
      ok: false,
      error: `fieldPath ${fieldPath}: the value is ${describe(found.value)}, not a string`,
    };
  }
  const rewritten = rewriteDocument(found.value, overrider);
  if (!rewritten.ok) return { ok: false, error: `fieldPath ${fieldPath}: ${rewritten.error}` };
  const patched = patchObject(object, [{ op: 'replace', path: fieldPath, value: rewritten.text }]);
  return patched.ok ? patched : { ok: false, error: patched.error };
}

type Rewrite = { ok: true; text: string } | { ok: false; error: string };

function rewriteDocument(text: string, overrider: FieldOverrider): Rewrite {
  const json = overrider.json ?? [];
  const yaml = overrider.yaml ?? [];
  if (json.length > 0 && yaml.length > 0)
    return { ok: false, error: 'set either json or yaml operations, not both' };
  if (yaml.length > 0) return rewrite(text, yaml, 'yaml');
  if (json.length > 0) return rewrite(text, json, 'json');
  return { ok: false, error: 'set json or yaml operations' };
}

function rewrite(
  text: string,
  operations: readonly FieldOverrideOperation[],
  format: 'json' | 'yaml',
): Rewrite {
  // evanphx/json-patch returns an empty JSON document unchanged.
  if (format === 'json' && text === '') return { ok: true, text };
  const parsed = format === 'json' ? parseJson(text) : parseYaml(text);
  if (!parsed.ok) return parsed;
  if (!isMap(parsed.value) && !Array.isArray(parsed.value)) {
    return {
      ok: false,
      error: `the ${format.toUpperCase()} document is ${describe(parsed.value)}, not a map or a list`,
    };
  }
  const patch = operations.map((o) => ({ op: o.operator, path: o.subPath, value: o.value }));
  const patched = applyJsonPatch(parsed.value, patch);
  if (!patched.ok) return { ok: false, error: `${format}[${patched.index}]: ${patched.error}` };
  return { ok: true, text: format === 'json' ? marshalGoJson(patched.value) : marshalGoYaml(patched.value) };
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `invalid JSON: ${(error as Error).message}` };
  }
}

function parseYaml(text: string): Parsed {
  try {
    return { ok: true, value: jsyaml.load(text, { schema: KUBE_YAML_SCHEMA }) };
  } catch (error) {
    return { ok: false, error: `invalid YAML: ${(error as Error).message}` };
  }
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (isMap(value)) return 'a map';
  return `a ${typeof value}`;
}
