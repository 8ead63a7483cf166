// The fleet's ResourceInterpreterCustomizations as a ResourceInterpreter: each operation runs
// its selected script (core/interpret/select-scripts.ts) in the Lua runtime and reads the
// results back as Karmada's VM does (luavm/lua.go: GetReplicas, ReviseReplica, Retain,
// AggregateStatus, InterpretHealth, ReflectStatus, GetDependencies):
//
// | operation           | arguments            | results read back                                       |
// |---------------------|----------------------|---------------------------------------------------------|
// | InterpretReplica    | object               | a whole number 0..2^31-1, a table or nil                |
// | ReviseReplica       | object, replicas     | a table (empty tables settled; spec.replicas 0..2^31-1) |
// | Retain              | desired, observed    | a table (settled against both)                          |
// | AggregateStatus     | object, status items | a table                                                 |
// | InterpretHealth     | object               | a boolean                                               |
// | InterpretStatus     | object               | a table                                                 |
// | InterpretDependency | object               | a list of references, checked as Karmada's              |
// |                     |                      | VerifyDependencies (apiVersion, kind, name or labelSelector) |
//
// Every failure names the object, the customization and the operation.
import type {
  InterpreterCustomization,
  InterpreterOperation,
} from '../../core/model/interpreter-customization.js';
import { interpreterOperations } from '../../core/model/interpreter-customization.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import type {
  AggregatedStatusItem,
  DependentObjectReference,
  InterpretOutcome,
  InterpretRequest,
  ReplicaRequirements,
  ResourceInterpreter,
} from '../../core/model/resource-interpreter.js';
import {
  selectScripts,
  targetKey,
  type KindScripts,
  type SelectedScript,
} from '../../core/interpret/select-scripts.js';
import { int32Problem } from '../../core/interpret/int32-problem.js';
import { LuaCalls } from './lua-calls.js';
import { LuaRuntime, type LuaBudget, type LuaCall, type LuaValue } from './lua-runtime.js';
import type { LuaRunner } from './lua-worker-runtime.js';
import { settleEmptyTables } from './settle-empty-tables.js';

export interface LuaInterpreterOptions {
  /** Per call; default one second (Karmada's) and 64 MiB. */
  budget?: Partial<LuaBudget>;
  /** A runtime to share; default a new in-thread one (LuaWorkerRuntime runs calls off the event loop). */
  runtime?: LuaRunner;
  /** All Lua calls of one pass together (see startPass); default two minutes. */
  passTimeMs?: number;
}

/** The interpreter with what its adapter's callers use beside the core interface. */
export interface LuaResourceInterpreter extends ResourceInterpreter {
  /** Starts a pass: the pass budget is whole again (lua-calls.ts). */
  startPass(): void;
  /** Runs the scripts of these requests ahead, off the event loop; the calls then take their results. */
  prepare(requests: readonly InterpretRequest[]): Promise<void>;
}

/** A script that does not compile, found when the interpreter is created. */
export interface ScriptProblem {
  customization: string;
  operation: InterpreterOperation;
  message: string;
}

const DEFAULT_BUDGET: LuaBudget = { timeMs: 1000, memoryBytes: 64 * 1024 * 1024 };
const DEFAULT_PASS_TIME_MS = 120_000;

/**
 * Returns an interpreter running the customizations' scripts, and the scripts that do not
 * compile (Karmada's webhook refuses those: checkCustomizationsRule). A script that does not
 * compile still fails each call that would run it, naming itself.
 */
export async function createLuaInterpreter(
  customizations: readonly InterpreterCustomization[],
  options: LuaInterpreterOptions = {},
): Promise<{ interpreter: LuaResourceInterpreter; problems: ScriptProblem[] }> {
  const runtime: LuaRunner = options.runtime ?? (await LuaRuntime.create());
  const budget = { ...DEFAULT_BUDGET, ...options.budget };
  const problems: ScriptProblem[] = [];
  for (const c of customizations) {
    for (const [operation, script] of Object.entries(c.scripts) as [InterpreterOperation, string][]) {
      if (script === '') continue;
      // Off the event loop where the runtime can: the first check also waits for its thread to load.
      const name = chunkName(c.name, operation);
      const message = runtime.checkSyntaxAsync
        ? await runtime.checkSyntaxAsync(script, name)
        : runtime.checkSyntax(script, name);
      if (message !== undefined) problems.push({ customization: c.name, operation, message });
    }
  }
  const calls = new LuaCalls(runtime, options.passTimeMs ?? DEFAULT_PASS_TIME_MS);
  return { interpreter: new LuaInterpreter(calls, selectScripts(customizations), budget), problems };
}

function chunkName(customization: string, operation: InterpreterOperation): string {
  return `=${customization}/${interpreterOperations[operation].rule}`;
}

type Outcome<T> = InterpretOutcome<T>;

/** A call's first two results (nil where the script returned fewer). */
type Results = readonly [LuaValue, LuaValue];

class LuaInterpreter implements LuaResourceInterpreter {
  constructor(
    private readonly calls: LuaCalls,
    private readonly kinds: ReadonlyMap<string, KindScripts>,
    private readonly budget: LuaBudget,
  ) {}

  startPass(): void {
    this.calls.startPass();
  }

  holdCalls(): void {
    this.calls.hold();
  }

  prepareHeld(): Promise<number> {
    return this.calls.prefetchHeld();
  }

  async prepare(requests: readonly InterpretRequest[]): Promise<void> {
    const calls: LuaCall[] = [];
    for (const request of requests) {
      const scripts = this.kinds.get(targetKey(request.object.apiVersion, request.object.kind));
      if (scripts === undefined) continue;
      const args = argsOf(request);
      if (request.operation === 'InterpretDependency')
        for (const selected of scripts.dependencies)
          calls.push(this.luaCall(request.operation, selected, args, 1));
      else {
        const selected = scripts.single[request.operation];
        const results = request.operation === 'InterpretReplica' ? 2 : 1;
        if (selected !== undefined) calls.push(this.luaCall(request.operation, selected, args, results));
      }
    }
    await this.calls.prefetch(calls);
  }

  hookEnabled(apiVersion: string, kind: string, operation: InterpreterOperation): boolean {
    const scripts = this.kinds.get(targetKey(apiVersion, kind));
    if (scripts === undefined) return false;
    return operation === 'InterpretDependency'
      ? scripts.dependencies.length > 0
      : scripts.single[operation] !== undefined;
  }

  scriptsKey(apiVersion: string, kind: string): string {
    return this.kinds.get(targetKey(apiVersion, kind))?.key ?? '';
  }

  getReplicas(object: KubeObject) {
    return this.run(object, 'InterpretReplica', [object], 2, ([replicas, requires]) => {
      if (typeof replicas !== 'number') return fail(`result type ${luaTypeOf(replicas)} is not number`);
      const problem = int32Problem('replicas', replicas);
      if (problem !== undefined) return fail(problem);
      const requirements = requires === null ? undefined : readRequirements(requires);
      if (typeof requirements === 'string') return fail(requirements);
      const value = { replicas, ...(requirements ? { requirements } : {}) };
      return { ok: true as const, value };
    });
  }

  reviseReplica(object: KubeObject, replicas: number) {
    return this.run(object, 'ReviseReplica', [object, Math.trunc(replicas)], 1, ([result]) => {
      const revised = readObject(result, [object]);
      if (!revised.ok) return revised;
      const spec = revised.value['spec'];
      const set = isRecord(spec) ? spec['replicas'] : undefined;
      const problem = typeof set === 'number' ? int32Problem('spec.replicas', set) : undefined;
      return problem === undefined ? revised : fail(problem);
    });
  }

  retain(desired: KubeObject, observed: KubeObject) {
    return this.run(desired, 'Retain', [desired, observed], 1, ([result]) =>
      readObject(result, [desired, observed]),
    );
  }

  aggregateStatus(object: KubeObject, items: readonly AggregatedStatusItem[] | null) {
    const args = argsOf({ operation: 'AggregateStatus', object, items });
    return this.run(object, 'AggregateStatus', args, 1, ([result]) => readObject(result, []));
  }

  interpretHealth(object: KubeObject) {
    return this.run(object, 'InterpretHealth', [object], 1, ([healthy]) =>
      typeof healthy === 'boolean'
        ? { ok: true as const, value: healthy }
        : fail(`result type ${luaTypeOf(healthy)} is not bool`),
    );
  }

  reflectStatus(object: KubeObject) {
    return this.run(object, 'InterpretStatus', [object], 1, ([result]) => {
      if (!isLuaTable(result))
        return fail(`expect the returned status type is table but got ${luaTypeOf(result)}`);
      const status = settleEmptyTables(result, { root: 'object' });
      if (!isRecord(status)) return fail('expect the returned status to be a map, not a list');
      return { ok: true as const, value: status };
    });
  }

  getDependencies(object: KubeObject): Outcome<DependentObjectReference[]> | undefined {
    const scripts = this.kinds.get(targetKey(object.apiVersion, object.kind))?.dependencies ?? [];
    if (scripts.length === 0) return undefined;
    const unique = new Map<string, DependentObjectReference>();
    for (const selected of scripts) {
      const outcome = this.call(object, 'InterpretDependency', selected, [object], 1, ([result]) =>
        readDependencies(result),
      );
      if (!outcome.ok) return outcome;
      for (const ref of outcome.value) unique.set(JSON.stringify(ref), ref);
    }
    return { ok: true, value: [...unique.values()].sort(compareReferences) };
  }

  private run<T>(
    object: KubeObject,
    operation: Exclude<InterpreterOperation, 'InterpretDependency'>,
    args: readonly unknown[],
    results: number,
    read: (values: Results) => Outcome<T>,
  ): Outcome<T> | undefined {
    const selected = this.kinds.get(targetKey(object.apiVersion, object.kind))?.single[operation];
    if (selected === undefined) return undefined;
    return this.call(object, operation, selected, args, results, read);
  }

  private call<T>(
    object: KubeObject,
    operation: InterpreterOperation,
    selected: SelectedScript,
    args: readonly unknown[],
    results: number,
    read: (values: Results) => Outcome<T>,
  ): Outcome<T> {
    const { luaFunction } = interpreterOperations[operation];
    const outcome = this.calls.run(this.luaCall(operation, selected, args, results));
    const read_ = outcome.ok
      ? read([outcome.values[0] ?? null, outcome.values[1] ?? null])
      : fail(failureText(outcome.failure, outcome.message, this.budget));
    if (read_.ok) return read_;
    return {
      ok: false,
      error: `${subjectOf(object)}: ResourceInterpreterCustomization/${selected.customization} ${operation} (${luaFunction}): ${read_.error}`,
    };
  }

  private luaCall(
    operation: InterpreterOperation,
    selected: SelectedScript,
    args: readonly unknown[],
    results: number,
  ): LuaCall {
    return {
      script: selected.script,
      chunkName: chunkName(selected.customization, operation),
      functionName: interpreterOperations[operation].luaFunction,
      args,
      results,
      budget: this.budget,
    };
  }
}

// The arguments each operation's function is called with (as the methods above pass them).
function argsOf(request: InterpretRequest): unknown[] {
  switch (request.operation) {
    case 'ReviseReplica':
      return [request.object, Math.trunc(request.replicas)];
    case 'Retain':
      return [request.object, request.observed];
    case 'AggregateStatus':
      return [request.object, request.items === null ? null : request.items.map(goStatusItem)];
    default:
      return [request.object];
  }
}

function failureText(failure: string, message: string, budget: LuaBudget): string {
  switch (failure) {
    case 'time-budget':
      return `the script ran past its time budget of ${budget.timeMs} ms and was stopped`;
    case 'memory-budget':
      return `the script used more than its memory budget of ${Math.round(budget.memoryBytes / 1024 / 1024)} MiB and was stopped`;
    case 'syntax':
      return `the script does not compile: ${message}`;
    default:
      return message;
  }
}

function subjectOf(object: KubeObject): string {
  const namespace =
    typeof object.metadata?.namespace === 'string' && object.metadata.namespace
      ? `${object.metadata.namespace}/`
      : '';
  return `${object.kind}/${namespace}${object.metadata?.name ?? ''}`;
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

function isLuaTable(value: LuaValue): boolean {
  return (value !== null && typeof value === 'object') || typeof value === 'symbol';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function luaTypeOf(value: LuaValue): string {
  if (value === null) return 'nil';
  if (isLuaTable(value)) return 'table';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

function readObject(result: LuaValue, references: readonly unknown[]): Outcome<KubeObject> {
  if (!isLuaTable(result)) return fail(`expect the returned type is table but got ${luaTypeOf(result)}`);
  const object = settleEmptyTables(result, { root: 'object', references });
  if (!isRecord(object)) return fail('expect the returned table to be an object, not a list');
  const metadata = isRecord(object['metadata']) ? object['metadata'] : {};
  return { ok: true, value: { ...object, metadata } as KubeObject };
}

// Karmada decodes the table into a typed ReplicaRequirements: the fields it knows, with types checked.
function readRequirements(value: LuaValue): ReplicaRequirements | string {
  if (!isLuaTable(value)) return `expect the returned requires type is table but got ${luaTypeOf(value)}`;
  const settled = settleEmptyTables(value, { root: 'object' });
  if (!isRecord(settled)) return 'expect the returned requires to be a table with string keys';
  const out: ReplicaRequirements = {};
  const { nodeClaim, resourceRequest, namespace, priorityClassName } = settled;
  if (nodeClaim !== undefined && nodeClaim !== null) {
    if (!isRecord(nodeClaim)) return 'requires.nodeClaim must be a table';
    out.nodeClaim = nodeClaim;
  }
  if (resourceRequest !== undefined && resourceRequest !== null) {
    if (!isRecord(resourceRequest)) return 'requires.resourceRequest must be a table';
    const list: Record<string, string | number> = {};
    for (const [name, q] of Object.entries(resourceRequest)) {
      if (typeof q !== 'string' && typeof q !== 'number')
        return `requires.resourceRequest.${name} must be a quantity`;
      list[name] = q;
    }
    out.resourceRequest = list;
  }
  if (typeof namespace === 'string') out.namespace = namespace;
  if (typeof priorityClassName === 'string') out.priorityClassName = priorityClassName;
  return out;
}

function readDependencies(value: LuaValue): Outcome<DependentObjectReference[]> {
  if (!isLuaTable(value)) return fail(`expect the returned type is table but got ${luaTypeOf(value)}`);
  const settled = settleEmptyTables(value, { root: 'list' });
  if (!Array.isArray(settled)) return fail('expect the returned table to be a list of references');
  const refs: DependentObjectReference[] = [];
  for (const [i, item] of settled.entries()) {
    if (!isRecord(item)) return fail(`dependencies[${i}]: must be a table`);
    const ref: DependentObjectReference = { apiVersion: '', kind: '' };
    for (const field of ['apiVersion', 'kind', 'namespace', 'name'] as const) {
      const v = item[field];
      if (v === undefined) continue;
      if (typeof v !== 'string') return fail(`dependencies[${i}].${field}: must be a string`);
      if (v !== '' || field === 'apiVersion' || field === 'kind') ref[field] = v;
    }
    if (isRecord(item['labelSelector'])) ref.labelSelector = item['labelSelector'];
    if (!ref.apiVersion) return fail(`dependencies[${i}].apiVersion: missing required apiVersion`);
    if (!ref.kind) return fail(`dependencies[${i}].kind: missing required kind`);
    if (!ref.name && !ref.labelSelector)
      return fail(`dependencies[${i}]: dependency can not leave name and labelSelector all empty`);
    refs.push(ref);
  }
  return { ok: true, value: refs };
}

function compareReferences(a: DependentObjectReference, b: DependentObjectReference): number {
  for (const field of ['apiVersion', 'kind', 'namespace', 'name'] as const) {
    const x = a[field] ?? '';
    const y = b[field] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

// Go's JSON of an AggregatedStatusItem leaves out false and empty fields (omitempty).
function goStatusItem(item: AggregatedStatusItem): Record<string, unknown> {
  return {
    clusterName: item.clusterName,
    ...(item.status !== undefined ? { status: item.status } : {}),
    ...(item.applied ? { applied: true } : {}),
    ...(item.appliedMessage ? { appliedMessage: item.appliedMessage } : {}),
    ...(item.health ? { health: item.health } : {}),
  };
}
