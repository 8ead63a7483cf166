// A render given the memo of the previous one must equal a fresh render of the same snapshot,
// whatever changed in between, and must compute again only what changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDirectorySource } from '../../../src/adapters/source/read-directory.js';
import { loadFleet, type LoadMemo, type SourceFile } from '../../../src/core/load/load-fleet.js';
import type { PreviousBinding } from '../../../src/core/model/binding.js';
import { freshSnapshot, type Snapshot } from '../../../src/core/model/snapshot.js';
import { previousBindingOf } from '../../../src/core/publish/previous-binding-of.js';
import { renderFleet, type RenderResult } from '../../../src/core/render/render-fleet.js';

const here = new URL('.', import.meta.url).pathname;
const example = join(here, '../../../../examples/fleet-repo');
const scenarios = join(here, '../../../../test/golden/scenarios');

/** Everything a render returns but its memo, in a form deepEqual compares strictly (order included). */
function outputOf(result: RenderResult) {
  return {
    clusters: [...result.clusters].map(([name, out]) => [name, [...out.files], [...out.held]]),
    bindings: result.bindings,
    diagnostics: result.diagnostics,
    stats: result.stats,
  };
}

function edit(files: SourceFile[], path: string, from: string | RegExp, to: string): SourceFile[] {
  return files.map((f) => {
    if (f.path !== path) return f;
    const content = f.content.replace(from, to);
    assert.notEqual(content, f.content, `the edit of ${path} changes it`);
    return { ...f, content };
  });
}

function previousOf(result: RenderResult): Map<string, PreviousBinding> {
  const previous = new Map<string, PreviousBinding>();
  for (const b of result.bindings) {
    const p = previousBindingOf(b);
    if (p) previous.set(b.key, p);
  }
  return previous;
}

/** Renders a sequence of repo states as a running hub does (load and render memos, previous bindings), checking each against a fresh render. */
function renderSequence(states: SourceFile[][]): RenderResult[] {
  let loadMemo: LoadMemo | undefined;
  let last: RenderResult | undefined;
  const results: RenderResult[] = [];
  for (const [i, files] of states.entries()) {
    const loaded = loadFleet(files, loadMemo ? { memo: loadMemo } : {});
    loadMemo = loaded.memo;
    if (!loaded.ok) continue;
    const snapshot: Snapshot = {
      ...freshSnapshot(loaded.fleet),
      previous: last ? previousOf(last) : new Map(),
    };
    const result = renderFleet(snapshot, last ? { memo: last.memo } : {});
    const fresh = loadFleet(files);
    assert.ok(fresh.ok);
    const expected = renderFleet({ ...snapshot, fleet: fresh.fleet });
    assert.deepEqual(
      outputOf(result),
      outputOf(expected),
      `state ${i}: the memoized render equals a fresh one`,
    );
    results.push(result);
    last = result;
  }
  return results;
}

test('every edit of the example fleet, rendered with the memo as a hub does, equals a fresh render', async () => {
  const base = await readDirectorySource(example);
  const states = [base];
  const next = (path: string, from: string | RegExp, to: string) => {
    states.push(edit(states.at(-1)!, path, from, to));
  };
  next('apps/shop/web.yaml', 'replicas: 10', 'replicas: 12');
  next('apps/shop/web.yaml', 'replicas: 12', 'replicas: 12\n  minReadySeconds: 5');
  next('clusters/aws-eu-prod.yaml', /labels:\n/, 'labels:\n    canary: "true"\n');
  next('overrides/api-log-level.yaml', /value: .*/, 'value: trace');
  next('policies/web.yaml', /replicaDivisionPreference: \w+/, 'replicaDivisionPreference: Aggregated');
  states.push(states.at(-1)!.filter((f) => f.path !== 'apps/ml/train-recommender.yaml'));
  states.push([
    ...states.at(-1)!,
    {
      path: 'apps/shop/extra.yaml',
      content:
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: shop\ndata:\n  a: b\n',
    },
  ]);
  states.push(states.at(-1)!.filter((f) => f.path !== 'clusters/onprem-gpu.yaml'));
  states.push(base);
  renderSequence(states);
});

test('the golden scenarios rendered one after another with the memo equal fresh renders', async () => {
  const states: SourceFile[][] = [];
  for (const name of readdirSync(scenarios).sort())
    states.push(await readDirectorySource(join(scenarios, name, 'fleet')));
  states.push(...[...states].reverse());
  renderSequence(states);
});

test('only what changed is computed again', async () => {
  const base = await readDirectorySource(example);
  const [first, second] = renderSequence([
    base,
    base,
    edit(base, 'apps/shop/web.yaml', 'replicas: 10', 'replicas: 12'),
  ]).slice(1);
  const renderedAgain = [...second!.memo.units]
    .filter(([id, u]) => first!.memo.units.get(id) !== u)
    .map(([id]) => id);
  assert.deepEqual(renderedAgain, ['apps/Deployment/shop/web']);
  const web = second!.bindings.find((b) => b.key === 'apps/Deployment/shop/web')!;
  const hosts = new Set(web.schedule.type === 'Scheduled' ? web.schedule.clusters.map((c) => c.name) : []);
  for (const [name, output] of second!.clusters) {
    if (hosts.has(name)) {
      assert.notEqual(output, first!.clusters.get(name));
      assert.deepEqual([...output.derived!.paths], ['shop/Deployment.apps/web.yaml'], name);
    } else assert.equal(output, first!.clusters.get(name), `${name} keeps its output object`);
  }
});

test('a fleet whose clusters changed is rendered whole, and still equals a fresh render', async () => {
  const base = await readDirectorySource(example);
  const results = renderSequence([
    base,
    edit(base, 'clusters/gcp-eu-prod.yaml', /name: gcp-eu-prod/, 'name: gcp-eu-prod2'),
  ]);
  const [before, after] = results as [RenderResult, RenderResult];
  assert.ok([...after.clusters.values()].every((o) => o.derived === undefined));
  assert.ok(
    after.clusters.has('gcp-eu-prod2') &&
      !after.clusters.has('gcp-eu-prod') &&
      before.clusters.has('gcp-eu-prod'),
  );
});
