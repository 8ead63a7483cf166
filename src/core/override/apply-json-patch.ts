import { deepCopy, isMap, type JsonValue } from '../model/kube-object.js';
import { parseJsonPointer } from './json-pointer.js';

/**
 * An RFC 6902 JSON patch applier with the behaviour of the library Karmada uses
 * (github.com/evanphx/json-patch/v5, default options), written here so the cases that decide
 * whether an override fails are Karmada's rather than another library's:
 *
 * | operation          | on a map key                      | on a list index                                   |
 * |--------------------|-----------------------------------|---------------------------------------------------|
 * | add                | sets the key (overwrites)         | inserts at 0..length, `-` appends; beyond: error  |
 * | replace            | key must exist, else error        | index must exist, else error                      |
 * | remove             | key must exist, else error        | index must exist, else error                      |
 * | any, parent absent | error (no parents are created)    | error                                             |
 *
 * Like evanphx/json-patch, negative indexes count from the end (-1 is the last item; for add,
 * -1 appends), an absent `value` is null, and `add`/`replace` at the empty path swap the whole
 * document (replace only for a map or list).
 */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace';
  path: string;
  value?: JsonValue | undefined;
}

export type JsonPatchOutcome = { ok: true; value: unknown } | { ok: false; index: number; error: string };

type StepOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/** Returns the patched copy of a document, or which operation failed and why; never changes its input. */
export function applyJsonPatch(doc: unknown, operations: readonly JsonPatchOperation[]): JsonPatchOutcome {
  let current = deepCopy(doc);
  for (const [index, operation] of operations.entries()) {
    const step = applyOperation(current, operation);
    if (!step.ok) return { ok: false, index, error: `${operation.op} ${operation.path}: ${step.error}` };
    current = step.value;
  }
  return { ok: true, value: current };
}

// Applies one operation to `doc`, which this module owns (a copy), and returns the new root.
function applyOperation(doc: unknown, operation: JsonPatchOperation): StepOutcome {
  const tokens = parseJsonPointer(operation.path);
  if (tokens === undefined) return { ok: false, error: 'invalid path: a JSON pointer starts with "/"' };
  const value = deepCopy(operation.value ?? null);
  const key = tokens.pop();
  if (key === undefined) return replaceRoot(operation.op, value);
  const parent = walk(doc, tokens);
  if (Array.isArray(parent)) {
    const error = changeList(parent, key, operation.op, value);
    return error === undefined ? { ok: true, value: doc } : { ok: false, error };
  }
  if (isMap(parent)) {
    const error = changeMap(parent, key, operation.op, value);
    return error === undefined ? { ok: true, value: doc } : { ok: false, error };
  }
  return { ok: false, error: 'path not found' };
}

function replaceRoot(op: JsonPatchOperation['op'], value: JsonValue): StepOutcome {
  if (op === 'add') return { ok: true, value };
  if (op === 'replace' && (isMap(value) || Array.isArray(value))) return { ok: true, value };
  if (op === 'replace')
    return { ok: false, error: 'the whole document can only be replaced by a map or a list' };
  return { ok: false, error: 'the whole document cannot be removed' };
}

function walk(doc: unknown, tokens: readonly string[]): unknown {
  let current = doc;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      const index = listIndex(token, current.length);
      if (index === undefined || index < 0 || index >= current.length) return undefined;
      current = current[index];
    } else if (isMap(current) && Object.prototype.hasOwnProperty.call(current, token)) {
      current = current[token];
    } else {
      return undefined;
    }
  }
  return current;
}

// evanphx/json-patch reads indexes with strconv.Atoi and counts negative ones from the end.
function listIndex(token: string, length: number): number | undefined {
  if (!/^[-+]?[0-9]+$/.test(token)) return undefined;
  const index = Number(token);
  return index < 0 ? index + length : index;
}

function changeList(
  list: unknown[],
  key: string,
  op: JsonPatchOperation['op'],
  value: JsonValue,
): string | undefined {
  if (op === 'add' && key === '-') {
    list.push(value);
    return undefined;
  }
  const length = op === 'add' ? list.length + 1 : list.length;
  const index = listIndex(key, length);
  if (index === undefined) return `"${key}" is not a list index`;
  if (index < 0 || index >= length) return `index ${key} is out of range (the list has ${list.length} items)`;
  if (op === 'add') list.splice(index, 0, value);
  else if (op === 'replace') list[index] = value;
  else list.splice(index, 1);
  return undefined;
}

function changeMap(
  map: Record<string, unknown>,
  key: string,
  op: JsonPatchOperation['op'],
  value: JsonValue,
): string | undefined {
  const exists = Object.prototype.hasOwnProperty.call(map, key);
  if (op !== 'add' && !exists) return 'path not found';
  if (op === 'remove') {
    delete map[key];
    return undefined;
  }
  // defineProperty, not assignment: a key such as "__proto__" must become data, not a prototype.
  Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
  return undefined;
}
