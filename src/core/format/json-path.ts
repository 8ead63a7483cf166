// The part of Kubernetes JSONPath (k8s.io/client-go/util/jsonpath, the `kubectl -o jsonpath`
// syntax) that state preservation needs (docs/failover.md): Karmada evaluates a rule's jsonPath
// against the reflected status of the copy being evicted, with missing keys an error
// (pkg/util/helper/failover.go parseJSONValue).
//
// | template                   | means                                                   |
// |----------------------------|---------------------------------------------------------|
// | `{.a.b}`, `{$.a.b}`        | field b of field a                                      |
// | `{.a[0].b}`, `{.a[-1]}`    | an item of a list (negative: from the end)              |
// | `{.a['x.y']}`, `{.a["x"]}` | a field whose name has dots or other special characters |
// | `v{.a}-{.b}`               | text outside braces is kept as written                  |
//
// A missing field, an index out of range or a step into something that is not a map or a list
// is an error naming the step. Values print as Kubernetes prints them: strings as they are,
// numbers and booleans as text, maps and lists as compact JSON (keys sorted, as Go's
// encoding/json writes maps). Filters, wildcards, ranges and recursive descent are refused
// when parsing, so a policy using them fails to load rather than at failover time.

/** One step of a path. */
export type JsonPathStep = { type: 'field'; name: string } | { type: 'index'; index: number };

/** A parsed template: literal text and paths, in order. */
export type JsonPathPart = { type: 'text'; text: string } | { type: 'path'; steps: JsonPathStep[] };

export type ParsedJsonPath = { ok: true; parts: JsonPathPart[] } | { ok: false; error: string };

export type JsonPathValue = { ok: true; value: string } | { ok: false; error: string };

const unsupported =
  "is not in the JSONPath subset gitfleet evaluates ({.a.b}, {.a[0].b}, {.a['x.y']}): no filters, wildcards, ranges or ..";

/** Returns the parts of a JSONPath template, or why it cannot be evaluated. */
export function parseJsonPath(template: string): ParsedJsonPath {
  const parts: JsonPathPart[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    if (open < 0) {
      parts.push({ type: 'text', text: template.slice(at) });
      break;
    }
    if (open > at) parts.push({ type: 'text', text: template.slice(at, open) });
    const close = template.indexOf('}', open);
    if (close < 0) return { ok: false, error: `unclosed { at character ${open + 1}` };
    const steps = parseSteps(template.slice(open + 1, close).trim());
    if (typeof steps === 'string') return { ok: false, error: steps };
    parts.push({ type: 'path', steps });
    at = close + 1;
  }
  if (!parts.some((p) => p.type === 'path')) return { ok: false, error: 'has no {…} path' };
  return { ok: true, parts };
}

// Returns the steps of one path inside braces, or the error.
function parseSteps(path: string): JsonPathStep[] | string {
  let rest = path.startsWith('$') ? path.slice(1) : path;
  if (rest === '') return `{${path}}: a path starts with .`;
  const steps: JsonPathStep[] = [];
  while (rest.length > 0) {
    if (rest.startsWith('..')) return `{${path}} ${unsupported}`;
    const field = /^\.([^.[\]\s'"*?@()]+)/.exec(rest);
    const quoted = /^\[\s*(?:'([^']*)'|"([^"]*)")\s*\]/.exec(rest);
    const index = /^\[\s*(-?\d+)\s*\]/.exec(rest);
    if (field) steps.push({ type: 'field', name: field[1]! });
    else if (quoted) steps.push({ type: 'field', name: quoted[1] ?? quoted[2]! });
    else if (index) steps.push({ type: 'index', index: Number(index[1]) });
    else return `{${path}} ${unsupported}`;
    rest = rest.slice((field ?? quoted ?? index)![0].length);
  }
  return steps;
}

/** Returns a parsed template evaluated against data, or the first step that fails. */
export function evaluateJsonPath(parsed: readonly JsonPathPart[], data: unknown): JsonPathValue {
  let out = '';
  for (const part of parsed) {
    if (part.type === 'text') {
      out += part.text;
      continue;
    }
    let value: unknown = data;
    for (const step of part.steps) {
      const next = stepInto(value, step);
      if (!next.ok) return next;
      value = next.value;
    }
    out += printed(value);
  }
  return { ok: true, value: out };
}

function stepInto(
  value: unknown,
  step: JsonPathStep,
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (step.type === 'field') {
    if (
      value === null ||
      typeof value !== 'object' ||
      Array.isArray(value) ||
      !Object.hasOwn(value, step.name)
    )
      return { ok: false, error: `${step.name} is not found` };
    return { ok: true, value: (value as Record<string, unknown>)[step.name] };
  }
  if (!Array.isArray(value)) return { ok: false, error: `[${step.index}]: not a list` };
  const i = step.index < 0 ? value.length + step.index : step.index;
  if (i < 0 || i >= value.length)
    return { ok: false, error: `array index out of bounds: index ${step.index}, length ${value.length}` };
  return { ok: true, value: value[i] };
}

function printed(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') return sortedJson(value);
  return String(value);
}

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
