// The field trees of the common built-in kinds (apps/v1, batch/v1, core v1, networking, rbac,
// policy, autoscaling, storage, scheduling, discovery, apiextensions), from the data that
// scripts/generate-builtin-fields.mjs takes from a Kubernetes API server's OpenAPI v3
// (builtin-field-data.ts). The data is one JSON text:
//
//   { "kinds": { "<apiVersion> <kind>": <node> }, "types": { "<name>": { "<field>": <node> } } }
//
// where a node is 0 (anything: a scalar, x-kubernetes-preserve-unknown-fields, a free-form
// object), ["l", node] (a list), ["m", node] (a map: additionalProperties), { field: node }
// (an object) or a string (the named object type of that name; types may be recursive).
// It is read on the first lookup, and each named type is built once, when first reached.
import { BUILTIN_FIELD_DATA } from './builtin-field-data.js';
import { anyValue, listOf, mapOf, type FieldSchema, type ObjectSchema } from './field-schema.js';

type Node = 0 | ['l' | 'm', Node] | string | { [field: string]: Node };

interface Data {
  kinds: Record<string, Node>;
  types: Record<string, Record<string, Node>>;
}

interface Decoded {
  data: Data;
  named: Map<string, ObjectSchema>;
  kinds: Map<string, FieldSchema | undefined>;
}

let decoded: Decoded | undefined;

/** Returns the schema of a built-in kind at the given apiVersion, or undefined when it is not one. */
export function builtinSchema(apiVersion: string, kind: string): FieldSchema | undefined {
  decoded ??= { data: JSON.parse(BUILTIN_FIELD_DATA) as Data, named: new Map(), kinds: new Map() };
  const key = `${apiVersion} ${kind}`;
  if (decoded.kinds.has(key)) return decoded.kinds.get(key);
  const node = Object.hasOwn(decoded.data.kinds, key) ? decoded.data.kinds[key] : undefined;
  const schema = node === undefined ? undefined : decode(node, decoded);
  decoded.kinds.set(key, schema);
  return schema;
}

/** Returns the apiVersion/kind pairs the data covers, sorted. */
export function builtinKinds(): string[] {
  decoded ??= { data: JSON.parse(BUILTIN_FIELD_DATA) as Data, named: new Map(), kinds: new Map() };
  return Object.keys(decoded.data.kinds);
}

function decode(node: Node, d: Decoded): FieldSchema {
  if (node === 0) return anyValue;
  if (typeof node === 'string') return namedType(node, d);
  if (Array.isArray(node)) return node[0] === 'l' ? listOf(decode(node[1], d)) : mapOf(decode(node[1], d));
  return objectOf(node, d, new Map());
}

// A named type is registered before its fields are decoded, so a type that contains itself
// (JSONSchemaProps) refers to the one object.
function namedType(name: string, d: Decoded): ObjectSchema {
  const known = d.named.get(name);
  if (known !== undefined) return known;
  const fields = new Map<string, FieldSchema>();
  const schema: ObjectSchema = { type: 'object', fields };
  d.named.set(name, schema);
  objectOf(d.data.types[name] ?? {}, d, fields);
  return schema;
}

function objectOf(node: Record<string, Node>, d: Decoded, fields: Map<string, FieldSchema>): ObjectSchema {
  for (const [field, child] of Object.entries(node)) fields.set(field, decode(child, d));
  return { type: 'object', fields };
}
