import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, type LoadMemo, type SourceFile } from '../../../src/core/load/load-fleet.js';
import { helmSource, overlay, webChart } from '../../support/chart-fixtures.js';

const asFiles = (files: Record<string, string>): SourceFile[] =>
  Object.entries(files).map(([path, content]) => ({ path, content }));

test("a HelmSource is loaded as a source, and its chart's files are not read as templates", () => {
  const loaded = loadFleet(
    asFiles({ ...webChart, 'sources/web.yaml': helmSource({ values: 'replicas: 3' }) }),
  );
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  assert.deepEqual(loaded.fleet.templates, []);
  const [first] = loaded.fleet.templateSources ?? [];
  assert.equal(first?.source.kind, 'HelmSource');
  assert.deepEqual(first?.inputs, ['charts/web']);
  assert.ok(first?.source.kind === 'HelmSource' && first.source.values['replicas'] === 3);
});

test('a KustomizeSource reads its overlay and every local base, and neither is read as templates', () => {
  const loaded = loadFleet(asFiles(overlay));
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  assert.deepEqual(loaded.fleet.templates, []);
  assert.deepEqual(loaded.fleet.templateSources?.[0]?.inputs, ['kustomize/base', 'kustomize/prod']);
});

test('a kustomization that reaches outside the repository or names a remote base is refused, naming the entry', () => {
  const files = asFiles({
    ...overlay,
    'kustomize/prod/kustomization.yaml':
      'resources:\n  - ../base\n  - ../../../etc\n  - https://github.com/example/app//base?ref=v1\n',
  });
  const loaded = loadFleet(files);
  assert.ok(!loaded.ok);
  const messages = loaded.errors.map((e) => `${e.file}: ${e.message}`);
  assert.equal(loaded.errors.length, 2, messages.join('\n'));
  assert.match(
    messages[0]!,
    /^sources\/api\.yaml: KustomizeSource: kustomize\/prod\/kustomization\.yaml: resources: "\.\.\/\.\.\/\.\.\/etc" leaves the repository/,
  );
  assert.match(messages[1]!, /"https:\/\/github\.com\/example\/app\/\/base\?ref=v1" is a remote base/);
});

test('a source path that leaves the repository is an error of the source document', () => {
  const loaded = loadFleet(
    asFiles({ 'sources/web.yaml': helmSource().replace('path: charts/web', 'path: ../outside/chart') }),
  );
  assert.ok(!loaded.ok);
  assert.equal(loaded.errors[0]?.code, 'InvalidSource');
  assert.match(
    loaded.errors[0]!.message,
    /^HelmSource\/default\/web: spec\.chart\.path: "\.\.\/outside\/chart": must stay inside the repository/,
  );
});

test("rendered files load as templates: a chart's namespaced objects go to the release namespace, cluster-scoped ones stay without", () => {
  const rendered = [
    {
      path: 'sources/web.yaml@web/templates/all.yaml',
      content:
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n  namespace: elsewhere\n',
      namespace: 'shop',
    },
  ];
  const loaded = loadFleet(asFiles({ ...webChart, 'sources/web.yaml': helmSource() }), { rendered });
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  assert.deepEqual(
    loaded.fleet.templates.map(
      (t) => `${t.ref.kind}/${t.ref.namespace}/${t.ref.name} ${t.source.file}#${t.source.index}`,
    ),
    [
      'Service/shop/web sources/web.yaml@web/templates/all.yaml#0',
      'Namespace//shop sources/web.yaml@web/templates/all.yaml#1',
      'ConfigMap/elsewhere/other sources/web.yaml@web/templates/all.yaml#2',
    ],
  );
});

test('a rendered object that is also committed as YAML is a duplicate identity naming both files', () => {
  const rendered = [
    {
      path: 'sources/web.yaml@web/templates/service.yaml',
      content: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n',
      namespace: 'shop',
    },
  ];
  const committed = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\n';
  const loaded = loadFleet(
    asFiles({ ...webChart, 'sources/web.yaml': helmSource(), 'apps/web.yaml': committed }),
    { rendered },
  );
  assert.ok(!loaded.ok);
  assert.equal(loaded.errors[0]?.code, 'DuplicateIdentity');
  assert.match(loaded.errors[0]!.message, /apps\/web\.yaml/);
  assert.match(
    `${loaded.errors[0]!.file} ${loaded.errors[0]!.message}`,
    /sources\/web\.yaml@web\/templates\/service\.yaml/,
  );
});

test('a misspelt field of a source is an error, not a source rendered without it', () => {
  const loaded = loadFleet(
    asFiles({
      ...webChart,
      'sources/web.yaml': helmSource().replace('spec:\n', 'spec:\n  valueFiles: [values/prod.yaml]\n'),
    }),
  );
  assert.ok(!loaded.ok);
  assert.equal(loaded.errors[0]?.code, 'UnknownField');
  assert.match(loaded.errors[0]!.message, /valueFiles/);
});

test('a source document under its own input path is an error, since it would never be read', () => {
  const loaded = loadFleet(asFiles({ ...webChart, 'charts/web/source.yaml': helmSource() }));
  assert.ok(!loaded.ok);
  assert.match(loaded.errors[0]!.message, /^HelmSource: the document lies under its own input "charts\/web"/);
});

test('a source that renders a Cluster, a FleetConfig or another source is refused, naming the rendered file', () => {
  const rendered = [
    {
      path: 'sources/web.yaml@web/templates/bad.yaml',
      content:
        'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: sneaky\n---\n' +
        helmSource({ name: 'inner' }),
    },
  ];
  const loaded = loadFleet(asFiles({ ...webChart, 'sources/web.yaml': helmSource() }), { rendered });
  assert.ok(!loaded.ok);
  assert.deepEqual(
    loaded.errors.map((e) => `${e.file}#${e.index}: ${e.message}`),
    [
      'sources/web.yaml@web/templates/bad.yaml#0: a template source renders templates and policies, not a Cluster',
      'sources/web.yaml@web/templates/bad.yaml#1: a template source renders templates and policies, not a template source',
    ],
  );
});

test('loading twice per pass, as the hub does, reuses what an unchanged render gave: the same template objects', () => {
  const files = asFiles({ ...webChart, 'sources/web.yaml': helmSource() });
  const rendered = [
    {
      path: 'sources/web.yaml@web/templates/service.yaml',
      content: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n',
      namespace: 'shop',
    },
  ];
  const pass = (memo?: LoadMemo) => {
    const first = loadFleet(files, memo ? { memo } : {});
    const second = loadFleet(files, { memo: first.memo, rendered });
    assert.ok(second.ok);
    return second;
  };
  const one = pass();
  const two = pass(one.memo);
  assert.ok(one.ok && two.ok);
  assert.equal(two.fleet.templates[0], one.fleet.templates[0], 'the rendered Service was not parsed again');
  const changed = loadFleet(files, {
    memo: loadFleet(files, { memo: two.memo }).memo,
    rendered: [{ ...rendered[0]!, content: rendered[0]!.content + 'spec: {type: NodePort}\n' }],
  });
  assert.ok(changed.ok);
  assert.notEqual(changed.fleet.templates[0], two.fleet.templates[0]);
  assert.deepEqual(changed.fleet.templates[0]?.object['spec'], { type: 'NodePort' });
});

test('an OCI chart is read with its version and digest; one pinned by neither, or named twice, is refused', () => {
  const withChart = (chart: string) =>
    loadFleet(asFiles({ 'sources/web.yaml': helmSource().replace('    path: charts/web', chart) }));
  const pinned = withChart(
    `    oci: oci://registry.example:5000/charts/web\n    version: 1.2.3\n    digest: sha256:${'a'.repeat(64)}`,
  );
  assert.ok(pinned.ok, JSON.stringify(!pinned.ok && pinned.errors));
  const [first] = pinned.fleet.templateSources ?? [];
  assert.deepEqual(first?.source.kind === 'HelmSource' && first.source.chart, {
    oci: 'oci://registry.example:5000/charts/web',
    version: '1.2.3',
    digest: `sha256:${'a'.repeat(64)}`,
  });
  assert.deepEqual(first?.inputs, []);
  const refused = [
    [
      '    oci: oci://registry.example/charts/web',
      /spec\.chart: pins its OCI chart by version, digest or both/,
    ],
    [
      '    oci: oci://registry.example/charts/web:1.0\n    version: 1.0',
      /spec\.chart\.oci: .*without a tag or digest/,
    ],
    [
      '    oci: oci://registry.example/charts/web\n    digest: md5:abc',
      /spec\.chart\.digest: "md5:abc": must be sha256:/,
    ],
    [
      '    path: charts/web\n    oci: oci://r.example/web\n    version: 1.0',
      /spec\.chart: names its chart by one of path, oci or repoURL, not path and oci/,
    ],
    ['    path: charts/web\n    version: 1.0', /spec\.chart\.version: pins a chart of a registry \(oci\)/],
    [
      '    repoURL: https://charts.example\n    name: web\n    version: "1.2"',
      /spec\.chart\.version: "1\.2": must be an exact chart version \(1\.4\.2\): a chart of a repository is pinned, never a range/,
    ],
    [
      '    repoURL: https://charts.example\n    name: web\n    version: ^1.2.0',
      /spec\.chart\.version: "\^1\.2\.0": must be an exact/,
    ],
    [
      '    repoURL: https://charts.example\n    name: web\n    version: 1.x',
      /spec\.chart\.version: "1\.x": must be an exact/,
    ],
    [
      '    repoURL: https://charts.example\n    name: web',
      /spec\.chart\.version: pins the chart: an exact version is required/,
    ],
    [
      '    repoURL: https://charts.example\n    version: 1.2.0',
      /spec\.chart\.name: is required with repoURL/,
    ],
    [
      '    repoURL: http://charts.example\n    name: web\n    version: 1.2.0',
      /spec\.chart\.repoURL: "http:\/\/charts\.example": must be https:\/\/.*\(http:\/\/ on a loopback address only\)/,
    ],
    [
      '    repoURL: https://user:secret@charts.example\n    name: web\n    version: 1.2.0',
      /spec\.chart\.repoURL: .*without credentials/,
    ],
    [
      '    repoURL: https://charts.example\n    oci: oci://charts.example/web\n    name: web\n    version: 1.2.0',
      /spec\.chart: names its chart by one of path, oci or repoURL, not oci and repoURL/,
    ],
    [
      '    repoURL: https://charts.example\n    name: web\n    version: 1.2.0\n    digest: sha256:abc',
      /spec\.chart\.digest: "sha256:abc": must be sha256:/,
    ],
  ] as const;
  for (const [chart, want] of refused) {
    const loaded = withChart(chart);
    assert.ok(!loaded.ok, chart);
    assert.match(loaded.errors.map((e) => e.message).join('\n'), want);
  }
});

test('a chart of a chart repository is read with its URL, name, exact version and digest; it has no input in the repository', () => {
  const withChart = (chart: string) =>
    loadFleet(asFiles({ 'sources/web.yaml': helmSource().replace('    path: charts/web', chart) }));
  const digest = `sha256:${'b'.repeat(64)}`;
  for (const [chart, want] of [
    [
      `    repoURL: https://charts.example.com/stable/\n    name: web\n    version: 1.2.3-rc.1+build.5\n    digest: ${digest}`,
      { repoURL: 'https://charts.example.com/stable', name: 'web', version: '1.2.3-rc.1+build.5', digest },
    ],
    [
      '    repoURL: http://127.0.0.1:8879\n    name: web\n    version: 0.1.0',
      { repoURL: 'http://127.0.0.1:8879', name: 'web', version: '0.1.0' },
    ],
  ] as const) {
    const loaded = withChart(chart);
    assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
    const [first] = loaded.fleet.templateSources ?? [];
    assert.deepEqual(first?.source.kind === 'HelmSource' && first.source.chart, want);
    assert.deepEqual(first?.inputs, []);
  }
});
