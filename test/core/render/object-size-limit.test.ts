// An object the API server would refuse for its size is an error at render time, for that
// template on that cluster, and is held (not rendered) there; a render whose whole output passes
// the total bound is refused (issue #27.17). Sizes are JSON bytes, as the API server receives them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, type SourceFile } from '../../../src/core/load/load-fleet.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet } from '../../../src/core/render/render-fleet.js';
import {
  checkRenderTotal,
  maxObjectBytes,
  maxRenderBytes,
} from '../../../src/core/render/check-render-size.js';

const mib = 1024 * 1024;

function fleetOf(configMaps: string, overrides = ''): SourceFile[] {
  return [
    {
      path: 'clusters.yaml',
      content: ['member1', 'member2']
        .map((n) => `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${n}}\n`)
        .join('---\n'),
    },
    { path: 'shop/config.yaml', content: configMaps },
    {
      path: 'policy.yaml',
      content: `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: all, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
${overrides}`,
    },
  ];
}

const configMap = (name: string, bytes: number) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: shop}\ndata:\n  blob: ${'x'.repeat(bytes)}\n`;

function render(files: SourceFile[]) {
  const loaded = loadFleet(files);
  assert.ok(loaded.ok, loaded.ok ? '' : JSON.stringify(loaded.errors));
  return renderFleet(freshSnapshot(loaded.fleet));
}

test('The object limit is 1.5 MiB of JSON, and the whole-render bound 2 GiB.', () => {
  assert.equal(maxObjectBytes, 1_572_864);
  assert.equal(maxRenderBytes, 2 * 1024 * mib);
});

test('A ConfigMap over 1.5 MiB is an ObjectTooLarge error on each cluster and is held, not rendered.', () => {
  const result = render(fleetOf(configMap('big', 2 * mib) + '---\n' + configMap('small', 1000)));
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(
    errors.map((d) => [d.code, d.subject, d.cluster]),
    [
      ['ObjectTooLarge', 'ConfigMap/shop/big', 'member1'],
      ['ObjectTooLarge', 'ConfigMap/shop/big', 'member2'],
    ],
  );
  assert.match(
    errors[0]?.message ?? '',
    /^2\.0 MiB rendered \(2,097,\d{3} bytes of JSON\), over the API server's 1\.5 MiB object limit/,
  );
  for (const cluster of ['member1', 'member2']) {
    const output = result.clusters.get(cluster)!;
    assert.equal(output.files.has('shop/ConfigMap/big.yaml'), false);
    assert.equal(output.files.has('shop/ConfigMap/small.yaml'), true);
    assert.match(output.held.get('shop/ConfigMap/big.yaml') ?? '', /object limit/);
  }
});

test('An object just under the limit renders; escaped characters count as the JSON bytes they become.', () => {
  const under = render(fleetOf(configMap('under', 1_500_000)));
  assert.deepEqual(
    under.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  // 800,000 newlines are 1.6 MB of JSON (each "\n" is two bytes there), not 0.8 million characters.
  const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lines, namespace: shop}\ndata:\n  blob: "${'\\n'.repeat(800_000)}"\n`;
  const lines = render(fleetOf(text));
  assert.deepEqual(
    lines.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
    ['ObjectTooLarge', 'ObjectTooLarge'],
  );
});

test("An override that makes one cluster's copy too large fails that cluster only.", () => {
  const overrides = `---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: grow, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: web}]
  overrideRules:
    - targetCluster: {clusterNames: [member2]}
      overriders:
        plaintext: [{path: /data/more, operator: add, value: ${'y'.repeat(mib)}}]
`;
  const result = render(fleetOf(configMap('web', 800_000), overrides));
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(
    errors.map((d) => [d.code, d.cluster]),
    [['ObjectTooLarge', 'member2']],
  );
  assert.equal(result.clusters.get('member1')!.files.has('shop/ConfigMap/web.yaml'), true);
  assert.equal(result.clusters.get('member2')!.files.has('shop/ConfigMap/web.yaml'), false);
});

test('A render whose files pass the total bound is refused, naming the total and the largest clusters.', () => {
  const result = render(fleetOf(configMap('a', 1_000_000) + '---\n' + configMap('b', 1_000_000)));
  assert.deepEqual(checkRenderTotal(result.clusters), { ok: true });
  const refused = checkRenderTotal(result.clusters, 3 * 1_000_000);
  assert.equal(refused.ok, false);
  assert.match(
    refused.ok ? '' : refused.message,
    /^render: 3\.8 MiB of manifests over 2 clusters \(member1 1\.9 MiB, member2 1\.9 MiB\), over the bound of 2\.9 MiB/,
  );
});
