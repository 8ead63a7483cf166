// The shape of the fields a kind accepts, as far as strictness needs it: which fields an object
// has, where a map takes any key, where a list's items are, and where anything goes. Value types
// (string, integer, enum) are the parsers' business, not this tree's.

/** The fields a value may have. */
export type FieldSchema = ObjectSchema | MapSchema | ListSchema | AnyValueSchema;

/** An object with a closed set of fields (a Go struct; a structural schema's `properties`). */
export interface ObjectSchema {
  readonly type: 'object';
  readonly fields: ReadonlyMap<string, FieldSchema>;
}

/** A map: any key, each value of one shape (OpenAPI `additionalProperties`). */
export interface MapSchema {
  readonly type: 'map';
  readonly values: FieldSchema;
}

/** A list whose items have one shape. */
export interface ListSchema {
  readonly type: 'list';
  readonly items: FieldSchema;
}

/**
 * A scalar, or a value whose fields are not checked (`x-kubernetes-preserve-unknown-fields`,
 * a free-form object such as `runtime.RawExtension`).
 */
export interface AnyValueSchema {
  readonly type: 'any';
}

/** A scalar or free-form value. */
export const anyValue: AnyValueSchema = { type: 'any' };

/** Returns an object schema with exactly these fields. */
export function object(fields: Readonly<Record<string, FieldSchema>>): ObjectSchema {
  return { type: 'object', fields: new Map(Object.entries(fields)) };
}

/** Returns a map schema whose values have the given shape. */
export function mapOf(values: FieldSchema): MapSchema {
  return { type: 'map', values };
}

/** Returns a list schema whose items have the given shape. */
export function listOf(items: FieldSchema): ListSchema {
  return { type: 'list', items };
}

/** A list of strings. */
export const stringList: ListSchema = listOf(anyValue);

/** A map of strings to strings (labels, annotations). */
export const stringMap: MapSchema = mapOf(anyValue);
