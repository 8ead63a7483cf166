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
  walk(value, schema, [], found);
  return found;
}

/** Returns the path of the steps as users write it: `spec.placement.clusterAffinities[0].labelSelector`. */
export function formatFieldPath(steps: readonly PathStep[]): string {
  let path = '';
  for (const step of steps) {
    if ('field' in step) path += path ? `.${step.field}` : step.field;
    else path += `[${'index' in step ? step.index : step.key}]`;
  }
  return path;
}

// `steps` is the path so far, pushed and popped in place; it is copied only for a finding.
function walk(value: unknown, schema: FieldSchema, steps: PathStep[], found: UnknownField[]): void {
  switch (schema.type) {
    case 'any':
      return;
    case 'object':
      if (isMap(value)) walkObject(value, schema, steps, found);
      return;
    case 'map':
      if (!isMap(value) || schema.values.type === 'any') return;
      for (const [key, v] of Object.entries(value)) {
        steps.push({ key });
        walk(v, schema.values, steps, found);
        steps.pop();
      }
      return;
    case 'list':
      if (!Array.isArray(value) || schema.items.type === 'any') return;
      value.forEach((item: unknown, index) => {
        steps.push({ index });
        walk(item, schema.items, steps, found);
        steps.pop();
      });
  }
}

function walkObject(
  value: Record<string, unknown>,
  schema: ObjectSchema,
  steps: PathStep[],
  found: UnknownField[],
): void {
  for (const field of Object.keys(value)) {
    const child = schema.fields.get(field);
    steps.push({ field });
    if (child !== undefined) walk(value[field], child, steps, found);
    else {
      const suggestion = suggestField(field, schema.fields.keys());
      const here = [...steps];
      found.push({
        steps: here,
        path: formatFieldPath(here),
        ...(suggestion !== undefined ? { suggestion } : {}),
      });
    }
    steps.pop();
  }
}
