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
import { clusterDoc, fileOf, ppWithPlacement } from '../load/documents.js';

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
function renderSequence(states: SourceFile[][], ahead = true): RenderResult[] {
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
    const result = renderFleet(snapshot, { ...(last ? { memo: last.memo } : {}), ahead });
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
  // The HPA scales web instead of api: both change hands over their replicas, templates unchanged.
  next('apps/shop/api.yaml', 'kind: Deployment\n    name: api', 'kind: Deployment\n    name: web');
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
  // The repo's own Namespace for shop: not propagated, then gone (made up), then back.
  next(
    'apps/shop/namespace.yaml',
    'app.kubernetes.io/part-of: shop',
    'app.kubernetes.io/part-of: shop\n    namespace.karmada.io/skip-auto-propagation: "true"',
  );
  // Only web is left in shop, then it moves: the clusters that need shop's Namespace change.
  states.push(
    states.at(-1)!.filter((f) => !['apps/shop/api.yaml', 'apps/shop/widget.yaml'].includes(f.path)),
  );
  next('policies/web.yaml', 'env: prod', 'env: staging');
  states.push(states.at(-1)!.filter((f) => f.path !== 'apps/shop/namespace.yaml'));
  states.push([...states.at(-1)!, base.find((f) => f.path === 'apps/shop/namespace.yaml')!]);
  states.push(base);
  renderSequence(states);
  renderSequence(states, false);
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

test('a binding that does not keep its own placement when scheduled again is scheduled again', () => {
  // m1 is NotReady: it passes the filters only while it is in the previous placement. Placed
  // there with 0 replicas, it drops out of the result, so the next render falls to the second term.
  const files: SourceFile[] = [
    fileOf('clusters.yaml', clusterDoc('m1'), clusterDoc('m2')),
    fileOf(
      'app.yaml',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          replicas: 0,
          template: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1' } } }] } },
        },
      },
      ppWithPlacement({
        // Duplicated: Karmada schedules it on every pass (doScheduleBinding); a Divided one
        // whose replicas still add up would keep its clusters (core/schedule/schedule-trigger.ts).
        clusterAffinities: [{ affinityName: 'first', clusterNames: ['m1'] }, { affinityName: 'second' }],
      }),
    ),
  ];
  const loaded = loadFleet(files);
  assert.ok(loaded.ok);
  const clusterStatus = new Map([
    ['m1', { conditions: [{ type: 'Ready', status: 'False' as const }] }],
    ['m2', { resourceSummary: { allocatable: { cpu: '8', pods: '110' } } }],
  ]);
  const key = 'apps/Deployment/default/web';
  const policy = { kind: 'PropagationPolicy' as const, namespace: 'default', name: 'pp' };
  const placedOnM1 = new Map([[key, { key, policy, clusters: [{ name: 'm1', replicas: 2 }] }]]);
  const first = renderFleet({ fleet: loaded.fleet, clusterStatus, previous: placedOnM1 }, { ahead: true });
  const snapshot = { fleet: loaded.fleet, clusterStatus, previous: previousOf(first) };
  const memoized = renderFleet(snapshot, { memo: first.memo, ahead: true });
  assert.deepEqual(outputOf(memoized), outputOf(renderFleet(snapshot)));
  const affinityOf = (r: RenderResult) => {
    const s = r.bindings.find((b) => b.key === key)!.schedule;
    return s.type === 'Scheduled' ? s.affinityName : s.type;
  };
  assert.deepEqual([affinityOf(first), affinityOf(memoized)], ['first', 'second']);
});
