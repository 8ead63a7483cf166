// Walks a document against the schema of its kind and lists every field the schema does not have.
// A value of another shape than the schema's (a string where an object belongs) is left to the
// parsers, which say what it must be.
import { isMap } from '../../model/kube-object.js';
import type { FieldSchema, ObjectSchema } from './field-schema.js';
import { suggestField } from './suggest-field.js';

/** One step of a field path: a field name, a list index or a map key. */
export type PathStep = { field: string } | { index: number } | { key: string };

/** A field the schema does not know. */
export interface UnknownField {
  /** From the document's root to the unknown field, the field included. */
  steps: PathStep[];
  /** `spec.placement.clusterAfinity`, `spec.overrideRules[0].overriders.plaintxt`. */
  path: string;
  /** The valid field at that place the unknown one most likely meant. */
  suggestion?: string;
}

/** Returns the fields of the value that its schema does not have, in document order. */
export function findUnknownFields(value: unknown, schema: FieldSchema): UnknownField[] {
  const found: UnknownField[] = [];
  walk(value, schema, [], '', found);
  return found;
}

function walk(
  value: unknown,
  schema: FieldSchema,
  steps: PathStep[],
  path: string,
  found: UnknownField[],
): void {
  switch (schema.type) {
    case 'any':
      return;
    case 'object':
      if (isMap(value)) walkObject(value, schema, steps, path, found);
      return;
    case 'map':
      if (!isMap(value)) return;
      for (const [key, v] of Object.entries(value))
        walk(v, schema.values, [...steps, { key }], `${path}[${key}]`, found);
      return;
    case 'list':
      if (!Array.isArray(value)) return;
      value.forEach((item: unknown, index) =>
        walk(item, schema.items, [...steps, { index }], `${path}[${index}]`, found),
      );
  }
}

function walkObject(
  value: Record<string, unknown>,
  schema: ObjectSchema,
  steps: PathStep[],
  path: string,
  found: UnknownField[],
): void {
  for (const [field, v] of Object.entries(value)) {
    const here = [...steps, { field }];
    const fieldPath = path ? `${path}.${field}` : field;
    const child = schema.fields.get(field);
    if (child !== undefined) {
      walk(v, child, here, fieldPath, found);
      continue;
    }
    const suggestion = suggestField(field, schema.fields.keys());
    found.push({ steps: here, path: fieldPath, ...(suggestion !== undefined ? { suggestion } : {}) });
  }
}
