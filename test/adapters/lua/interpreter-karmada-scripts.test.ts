// Karmada's own customizations run the same in gitfleet's Lua VM: every
// customizations.yaml Karmada ships for third-party CRDs
// (pkg/resourceinterpreter/default/thirdparty/resourcecustomizations/<group>/<version>/<Kind>/)
// is run against the testdata cases next to it, and each result must equal the case's
// `output`, compared as Karmada's own test compares them
// (pkg/resourceinterpreter/default/thirdparty/thirdparty_test.go: quantities by value,
// dependencies sorted, `{{EXCLUDE}}` fields left out). The scripts are read from a local
// mirror of Karmada's repository at test time and never copied into this repository; without
// the mirror the test is skipped. GITFLEET_KARMADA_MIRROR names another mirror (a bare git dir).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import yaml from 'js-yaml';
import { createLuaInterpreter } from '../../../src/adapters/lua/lua-interpreter.js';
import { LuaRuntime } from '../../../src/adapters/lua/lua-runtime.js';
import { parseInterpreterCustomization } from '../../../src/core/load/parse-interpreter-customization.js';
import type { InterpreterCustomization } from '../../../src/core/model/interpreter-customization.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import type {
  AggregatedStatusItem,
  ResourceInterpreter,
} from '../../../src/core/model/resource-interpreter.js';
import { parseQuantity } from '../../../src/core/model/parse-quantity.js';

const MIRROR = process.env['GITFLEET_KARMADA_MIRROR'] ?? '/work/.mirror/karmada-io+karmada/repo';
const ROOT = 'pkg/resourceinterpreter/default/thirdparty/resourcecustomizations/';
const present = existsSync(MIRROR);

function git(...args: string[]): string {
  return execFileSync('git', ['-C', MIRROR, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

interface Case {
  name: string;
  operation: string;
  desiredObj?: KubeObject;
  observedObj?: KubeObject;
  statusItems?: AggregatedStatusItem[];
  inputReplicas?: number;
  output?: Record<string, unknown>;
  file: string;
}

function customizationsOf(path: string): InterpreterCustomization[] {
  return yaml.loadAll(git('show', `HEAD:${path}`)).map((doc, index) => {
    const object = doc as Record<string, unknown>;
    const name = (object['metadata'] as { name: string }).name;
    const parsed = parseInterpreterCustomization({ object, name, source: { file: path, index } });
    assert.ok(parsed.ok, `${path}: ${JSON.stringify(!parsed.ok && parsed.issues)}`);
    return parsed.customization;
  });
}

function casesOf(dir: string, files: readonly string[]): Case[] {
  return files
    .filter((f) => f.startsWith(`${dir}/testdata/`))
    .flatMap((file) =>
      yaml
        .loadAll(git('show', `HEAD:${file}`))
        .filter((doc) => doc !== null && doc !== undefined)
        .map((doc) => ({ ...(doc as Omit<Case, 'file'>), file })),
    );
}

// Runs one case's operation; returns its named results as Karmada's rule.go names them.
function runCase(interpreter: ResourceInterpreter, c: Case): Record<string, unknown> | string {
  const object = (c.desiredObj ?? c.observedObj)!;
  const unwrap = <T>(outcome: { ok: true; value: T } | { ok: false; error: string } | undefined) => {
    if (outcome === undefined) throw new Error('rule is not enabled');
    if (!outcome.ok) throw new Error(outcome.error);
    return outcome.value;
  };
  switch (c.operation.toLowerCase()) {
    case 'interpretreplica': {
      const value = unwrap(interpreter.getReplicas(object));
      return { replica: value.replicas, requires: value.requirements ?? null };
    }
    case 'revisereplica':
      return { revised: unwrap(interpreter.reviseReplica(object, c.inputReplicas ?? 0)) };
    case 'retain':
      return { retained: unwrap(interpreter.retain(c.desiredObj!, c.observedObj!)) };
    case 'aggregatestatus':
      return { aggregatedStatus: unwrap(interpreter.aggregateStatus(object, c.statusItems ?? null)) };
    case 'interprethealth':
      return { healthy: unwrap(interpreter.interpretHealth(object)) };
    case 'interpretstatus':
      return { status: unwrap(interpreter.reflectStatus(object)) };
    case 'interpretdependency':
      return { dependencies: unwrap(interpreter.getDependencies(object)) };
    default:
      return `operation ${c.operation} is not interpreted by gitfleet`;
  }
}

// Quantities compare by value (Karmada's checker uses Quantity.Equal); other values as JSON.
function normalize(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => normalize(v));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = normalize((value as Record<string, unknown>)[k], k);
    return out;
  }
  if (key === 'resourceRequest-item' && (typeof value === 'string' || typeof value === 'number'))
    return String(parseQuantity(value));
  return value;
}

function normalizeRequires(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const requires = { ...(value as Record<string, unknown>) };
  const request = requires['resourceRequest'];
  if (request && typeof request === 'object') {
    requires['resourceRequest'] = Object.fromEntries(
      Object.entries(request).map(([k, q]) => [k, String(parseQuantity(q))]),
    );
  }
  return normalize(requires);
}

// Fields whose expected value is {{EXCLUDE}} are left out of both sides (thirdparty_test.go).
function exclude(expected: unknown, actual: unknown): [unknown, unknown] {
  if (expected === null || typeof expected !== 'object' || actual === null || typeof actual !== 'object')
    return [expected, actual];
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const pairs = expected.map((e, i) => exclude(e, actual[i]));
    return [pairs.map(([e]) => e), [...pairs.map(([, a]) => a), ...actual.slice(expected.length)]];
  }
  const e: Record<string, unknown> = {};
  const a: Record<string, unknown> = { ...(actual as Record<string, unknown>) };
  for (const [k, v] of Object.entries(expected)) {
    if (v === '{{EXCLUDE}}') {
      delete a[k];
      continue;
    }
    const [ev, av] = exclude(v, a[k]);
    e[k] = ev;
    if (k in a) a[k] = av;
  }
  return [e, a];
}

// Cases whose scripts build a list by walking a map with pairs: gopher-lua walks in insertion
// order, which Lua 5.4 does not keep (sandbox-prelude.ts walks in a fixed order instead), so
// their lists hold the same items in another order. They are compared with lists sorted.
const PAIRS_ORDER_CASES = new Set(['MPIJob with three status items', 'MPIJob with failed cluster']);

function sortLists(value: unknown): unknown {
  if (Array.isArray(value))
    return value.map(sortLists).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sortLists(v)]));
  return value;
}

function compare(name: string, expected: unknown, actual: unknown, caseName = ''): void {
  if (PAIRS_ORDER_CASES.has(caseName)) {
    [expected, actual] = [sortLists(normalize(expected)), sortLists(normalize(actual))];
  }
  if (name === 'requires') {
    assert.deepEqual(normalizeRequires(actual), normalizeRequires(expected));
    return;
  }
  if (name === 'dependencies') {
    const sort = (list: unknown) =>
      [...((list as unknown[] | null) ?? [])].map((d) => JSON.stringify(normalize(d))).sort();
    assert.deepEqual(sort(actual), sort(expected));
    return;
  }
  // gitfleet's objects always have metadata; Karmada's Unstructured may lack it.
  const bare = (v: unknown) => v !== null && typeof v === 'object' && !('metadata' in v);
  if (bare(expected) && actual !== null && typeof actual === 'object') {
    const { metadata, ...rest } = actual as Record<string, unknown>;
    if (metadata !== null && typeof metadata === 'object' && Object.keys(metadata).length === 0)
      actual = rest;
  }
  const [e, a] = exclude(expected, actual);
  assert.deepEqual(normalize(a), normalize(e));
}

test(
  "Karmada's shipped customizations give the outputs of their testdata in gitfleet's Lua VM.",
  { skip: present ? false : `no Karmada mirror at ${MIRROR}` },
  async (t) => {
    const files = git('ls-tree', '-r', '--name-only', 'HEAD', ROOT).split('\n').filter(Boolean);
    const runtime = await LuaRuntime.create();
    let ran = 0;
    for (const path of files.filter((f) => f.endsWith('/customizations.yaml'))) {
      const dir = path.slice(0, -'/customizations.yaml'.length);
      const customizations = customizationsOf(path);
      const { interpreter, problems } = await createLuaInterpreter(customizations, { runtime });
      assert.deepEqual(problems, [], `${path}: every script compiles`);
      for (const c of casesOf(dir, files)) {
        await t.test(`${dir.slice(ROOT.length)}: ${c.operation}: ${c.name}`, (st) => {
          const results = runCase(interpreter, c);
          if (typeof results === 'string') return st.skip(results);
          ran++;
          for (const [name, expected] of Object.entries(c.output ?? {})) {
            assert.ok(name in results, `${c.file}: output ${name} is one of the results`);
            compare(name, expected, results[name], c.name);
          }
        });
      }
    }
    assert.ok(ran > 100, `ran ${ran} cases`);
  },
);
