// A CEL expression of an admission policy, compiled once: Kubernetes' CEL (the standard library,
// cel-go's strings extension with format, and Kubernetes' libraries: kube-cel-library.ts) over
// untyped values (dyn): gitfleet has no OpenAPI schema of a rendered object, so field names are
// checked when the expression runs, not when it compiles (docs/admission-policies.md#cel).
import { celEnv, celFunc, CelScalar, isCelError, parse, plan, type CelInput } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { costFunction, meterExpression, type CostMeter } from './cel-cost.js';
import { kubeCelLibrary } from './kube-cel-library.js';

/** A compiled expression: run it on the variables, charged to the meter. */
export type CompiledExpression = (vars: Record<string, CelInput>, meter: CostMeter) => ExpressionResult;

export type ExpressionResult = { ok: true; value: unknown } | { ok: false; error: string };

/** The meter the running evaluation charges (evaluations are synchronous: one at a time). */
let current: CostMeter | undefined;

const env = celEnv({
  funcs: [
    ...strings,
    ...kubeCelLibrary,
    celFunc(costFunction, [CelScalar.DYN], CelScalar.DYN, (value) => {
      current?.charge(value);
      return value as CelInput;
    }),
  ],
});

type Compiled = { ok: true; run: CompiledExpression } | { ok: false; error: string };

// Compiled programs by expression text, kept across renders: a policy is parsed again at every
// render, its expressions are not (a program is a pure function of its text; the meter it
// charges is passed to each run). Bounded, the least recently used going first.
const cacheLimit = 20_000;
const cache = new Map<string, Compiled>();
let compilations = 0;

/** Returns how many expressions were compiled (not found in the cache) since the process started: for tests. */
export function expressionCompilations(): number {
  return compilations;
}

/** Returns the expression compiled, or the compile error with its line and column; the same text is compiled once. */
export function compileExpression(text: string): Compiled {
  const cached = cache.get(text);
  if (cached) {
    cache.delete(text);
    cache.set(text, cached);
    return cached;
  }
  const made = compileAfresh(text);
  compilations++;
  cache.set(text, made);
  if (cache.size > cacheLimit) cache.delete(cache.keys().next().value!);
  return made;
}

function compileAfresh(text: string): Compiled {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(text);
  } catch (e) {
    return { ok: false, error: positionOf(e) };
  }
  meterExpression(parsed.expr, { value: maxId(parsed.expr) + 1n });
  let program: ReturnType<typeof plan>;
  try {
    program = plan(env, parsed);
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
  return {
    ok: true,
    run(vars, meter) {
      current = meter;
      try {
        const value = program(vars);
        if (meter.exceeded) return { ok: false, error: `cost limit exceeded: ${meter.exceeded}` };
        if (isCelError(value)) return { ok: false, error: value.message };
        return { ok: true, value };
      } finally {
        current = undefined;
      }
    },
  };
}

// "<input>:1:22: found < but expecting …" → "line 1, column 22: found < but expecting …"
function positionOf(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const m = /^<input>:(\d+):(\d+): ([\s\S]*)$/.exec(message);
  return m ? `line ${m[1]}, column ${m[2]}: ${m[3]}` : message;
}

function maxId(expr: ReturnType<typeof parse>['expr']): bigint {
  let max = expr.id;
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach(visit);
    const record = value as Record<string, unknown>;
    if (typeof record['id'] === 'bigint' && record['id'] > max) max = record['id'];
    for (const child of Object.values(record)) if (typeof child === 'object') visit(child);
  };
  visit(expr);
  return max;
}
