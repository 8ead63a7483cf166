// Karmada's Overriders, read and checked as ValidateOverrideRules (pkg/util/validation/validation.go)
// and the OverridePolicy CRD (charts/karmada/_crds/bases/policy/) do:
//
// | overrider            | required                      | checks                                                       |
// |----------------------|-------------------------------|--------------------------------------------------------------|
// | imageOverrider       | component, operator           | component Registry/Repository/Tag; operator add/remove/replace; predicate.path a JSON pointer starting with '/' |
// | commandOverrider     | containerName, operator       | operator add/remove                                          |
// | argsOverrider        | containerName, operator       | operator add/remove                                          |
// | labelsOverrider      | operator, value               | keys qualified names, values label values                    |
// | annotationsOverrider | operator, value               | keys qualified names                                         |
// | fieldOverrider       | fieldPath                     | exactly one of json/yaml; subPath a JSON pointer; add/replace need a value, remove takes none |
// | plaintext            | path, operator                | operator add/remove/replace                                  |
import { quoteText } from '../model/quote-text.js';
import type { JsonValue } from '../model/kube-object.js';
import type {
  CommandArgsOverrider,
  FieldOverrideOperation,
  FieldOverrider,
  ImageOverrider,
  LabelAnnotationOverrider,
  Overriders,
  PlaintextOverrider,
} from '../model/override-policy.js';
import {
  childPath,
  compact,
  isAbsent,
  itemPath,
  readList,
  readMap,
  readRequiredEnum,
  readRequiredString,
  readString,
  readStringList,
  readStringMap,
  type Issues,
} from './field-reader.js';
import { checkLabelValue, checkQualifiedName } from './name-rules.js';

const PATCH_OPERATORS = ['add', 'remove', 'replace'] as const;
const LIST_OPERATORS = ['add', 'remove'] as const;
const IMAGE_COMPONENTS = ['Registry', 'Repository', 'Tag'] as const;

/** Returns the overriders of one rule; each kind is a list, absent when not given. */
export function parseOverriders(value: unknown, path: string, issues: Issues): Overriders {
  const map = readMap(value, path, issues) ?? {};
  const list = <T>(key: keyof Overriders, item: (v: unknown, p: string) => T | undefined): T[] | undefined =>
    readList(map[key], childPath(path, key), issues, item);
  return compact<Overriders>({
    imageOverrider: list('imageOverrider', (v, p) => parseImage(v, p, issues)),
    commandOverrider: list('commandOverrider', (v, p) => parseCommandArgs(v, p, issues)),
    argsOverrider: list('argsOverrider', (v, p) => parseCommandArgs(v, p, issues)),
    labelsOverrider: list('labelsOverrider', (v, p) => parseLabelAnnotation(v, p, 'labels', issues)),
    annotationsOverrider: list('annotationsOverrider', (v, p) =>
      parseLabelAnnotation(v, p, 'annotations', issues),
    ),
    fieldOverrider: list('fieldOverrider', (v, p) => parseField(v, p, issues)),
    plaintext: list('plaintext', (v, p) => parsePlaintext(v, p, issues)),
  });
}

/** Returns true when no overrider of any kind is given. */
export function hasNoOverriders(overriders: Overriders): boolean {
  return Object.values(overriders).every(
    (list: unknown[] | undefined) => list === undefined || list.length === 0,
  );
}

function parseImage(value: unknown, path: string, issues: Issues): ImageOverrider | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const component = readRequiredEnum(
    map['component'],
    IMAGE_COMPONENTS,
    childPath(path, 'component'),
    issues,
  );
  const operator = readRequiredEnum(map['operator'], PATCH_OPERATORS, childPath(path, 'operator'), issues);
  const predicatePath = childPath(path, 'predicate');
  const predicate = readMap(map['predicate'], predicatePath, issues);
  let pointer: string | undefined;
  if (predicate !== undefined) {
    const at = childPath(predicatePath, 'path');
    pointer = readRequiredString(predicate['path'], at, issues);
    if (pointer !== undefined && !pointer.startsWith('/')) {
      issues.push({ path: at, message: `${quoteText(pointer)}: must be a JSON pointer starting with '/'` });
    }
  }
  const text = readString(map['value'], childPath(path, 'value'), issues);
  if (component === undefined || operator === undefined) return undefined;
  return compact<ImageOverrider>({
    predicate: pointer === undefined ? undefined : { path: pointer },
    component,
    operator,
    value: text,
  });
}

function parseCommandArgs(value: unknown, path: string, issues: Issues): CommandArgsOverrider | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const containerName = readRequiredString(map['containerName'], childPath(path, 'containerName'), issues);
  const operator = readRequiredEnum(map['operator'], LIST_OPERATORS, childPath(path, 'operator'), issues);
  const values = readStringList(map['value'], childPath(path, 'value'), issues);
  if (containerName === undefined || operator === undefined) return undefined;
  return compact<CommandArgsOverrider>({ containerName, operator, value: values });
}

const ANNOTATIONS_SIZE_LIMIT = 256 * 1024;

function parseLabelAnnotation(
  value: unknown,
  path: string,
  what: 'labels' | 'annotations',
  issues: Issues,
): LabelAnnotationOverrider | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const operator = readRequiredEnum(map['operator'], PATCH_OPERATORS, childPath(path, 'operator'), issues);
  const valuePath = childPath(path, 'value');
  if (isAbsent(map['value'])) issues.push({ path: valuePath, message: 'is required' });
  const entries = readStringMap(map['value'], valuePath, issues);
  for (const [key, v] of Object.entries(entries ?? {})) {
    // apivalidation.ValidateAnnotations checks keys lower-cased; metav1validation.ValidateLabels checks both.
    const badKey = checkQualifiedName(what === 'annotations' ? key.toLowerCase() : key);
    if (badKey) issues.push({ path: itemPath(valuePath, key), message: `key ${quoteText(key)}: ${badKey}` });
    const badValue = what === 'labels' ? checkLabelValue(v) : undefined;
    if (badValue)
      issues.push({ path: itemPath(valuePath, key), message: `value ${quoteText(v)}: ${badValue}` });
  }
  // apivalidation.ValidateAnnotations: keys and values together at most 256 KiB.
  const size = Object.entries(entries ?? {}).reduce((n, [k, v]) => n + k.length + v.length, 0);
  if (what === 'annotations' && size > ANNOTATIONS_SIZE_LIMIT) {
    issues.push({
      path: valuePath,
      message: `may not be more than ${ANNOTATIONS_SIZE_LIMIT} bytes (${size})`,
    });
  }
  if (operator === undefined) return undefined;
  return compact<LabelAnnotationOverrider>({ operator, value: entries });
}

function parseField(value: unknown, path: string, issues: Issues): FieldOverrider | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const fieldPath = readRequiredString(map['fieldPath'], childPath(path, 'fieldPath'), issues);
  if (fieldPath !== undefined) checkPointer(fieldPath, childPath(path, 'fieldPath'), issues);
  const json = readList(map['json'], childPath(path, 'json'), issues, (v, p) =>
    parseFieldOperation(v, p, issues),
  );
  const yaml = readList(map['yaml'], childPath(path, 'yaml'), issues, (v, p) =>
    parseFieldOperation(v, p, issues),
  );
  const hasJson = Array.isArray(map['json']) && map['json'].length > 0;
  const hasYaml = Array.isArray(map['yaml']) && map['yaml'].length > 0;
  if (hasJson && hasYaml) {
    issues.push({ path, message: 'FieldOverrider has both YAML and JSON set. Only one is allowed' });
  }
  if (!hasJson && !hasYaml)
    issues.push({ path, message: 'FieldOverrider must have either JSON or YAML set' });
  if (fieldPath === undefined) return undefined;
  return compact<FieldOverrider>({ fieldPath, json, yaml });
}

function parseFieldOperation(
  value: unknown,
  path: string,
  issues: Issues,
): FieldOverrideOperation | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const subPath = readRequiredString(map['subPath'], childPath(path, 'subPath'), issues);
  if (subPath !== undefined) checkPointer(subPath, childPath(path, 'subPath'), issues);
  const operator = readRequiredEnum(map['operator'], PATCH_OPERATORS, childPath(path, 'operator'), issues);
  // validateOverrideOperator: a JSON null is an absent value.
  const hasValue = !isAbsent(map['value']);
  if ((operator === 'add' || operator === 'replace') && !hasValue) {
    issues.push({
      path: childPath(path, 'value'),
      message: 'value is required for add or replace operation',
    });
  }
  if (operator === 'remove' && hasValue) {
    issues.push({ path: childPath(path, 'value'), message: 'value is not allowed for remove operation' });
  }
  if (subPath === undefined || operator === undefined) return undefined;
  return compact<FieldOverrideOperation>({ subPath, operator, value: jsonValue(map['value']) });
}

function parsePlaintext(value: unknown, path: string, issues: Issues): PlaintextOverrider | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const pointer = readRequiredString(map['path'], childPath(path, 'path'), issues);
  const operator = readRequiredEnum(map['operator'], PATCH_OPERATORS, childPath(path, 'operator'), issues);
  if (pointer === undefined || operator === undefined) return undefined;
  return compact<PlaintextOverrider>({ path: pointer, operator, value: jsonValue(map['value']) });
}

// jsonpointer.New (go-openapi): a pointer is empty or starts with '/'.
function checkPointer(pointer: string, path: string, issues: Issues): void {
  if (pointer !== '' && !pointer.startsWith('/')) {
    issues.push({ path, message: `${quoteText(pointer)}: JSON pointer must be empty or start with a "/"` });
  }
}

// The loader parses YAML with the core schema, so every value is already JSON-like; a null is
// an absent value, as Karmada reads apiextensionsv1.JSON.
function jsonValue(value: unknown): JsonValue | undefined {
  return isAbsent(value) ? undefined : (value as JsonValue);
}
