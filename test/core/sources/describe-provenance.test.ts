// A template source's provenance in words and in the bindings record (docs/sources.md#provenance):
// the trailer line, the bound on trailers, the record field written and read back, and which
// sources a set of changed rendered objects came from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourceProvenance, TemplateProvenance } from '../../../src/core/model/source-provenance.js';
import {
  describeProvenance,
  maxSourceTrailers,
  templateSourceLines,
} from '../../../src/core/sources/describe-provenance.js';
import { bindingRecord, parseBindingView } from '../../../src/core/publish/binding-record.js';
import { changedSources, renderedSourceFile } from '../../../src/core/sources/changed-sources.js';
import type { Binding } from '../../../src/core/model/binding.js';

const web: SourceProvenance = {
  kind: 'HelmSource',
  name: 'web',
  file: 'sources/web.yaml',
  chart: {
    ref: 'oci://registry.example.com/charts/web:1.4.2',
    name: 'web',
    version: '1.4.2',
    digest: 'sha256:6d46',
  },
  tool: 'helm v4.3.2',
};
const api: SourceProvenance = {
  kind: 'KustomizeSource',
  name: 'api',
  file: 'sources/api.yaml',
  kustomization: { path: 'kustomize/prod', digest: 'a1b2c3' },
  tool: 'kustomize v5.8.2',
};

const cases: { name: string; given: SourceProvenance; want: string }[] = [
  {
    name: 'a chart from a registry names its name, version, reference and digest, and the tool',
    given: web,
    want: 'HelmSource/web (sources/web.yaml): chart web 1.4.2 from oci://registry.example.com/charts/web:1.4.2 sha256:6d46, helm v4.3.2',
  },
  {
    name: 'a chart whose Chart.yaml gives no version says so',
    given: { ...web, chart: { ref: 'charts/web', name: 'web', digest: 'f00d' } },
    want: 'HelmSource/web (sources/web.yaml): chart web (Chart.yaml has no version) from charts/web f00d, helm v4.3.2',
  },
  {
    name: 'a chart whose Chart.yaml cannot be read says what it is and what is missing',
    given: { ...web, chart: { ref: 'charts/web.tgz' } },
    want: 'HelmSource/web (sources/web.yaml): chart charts/web.tgz (Chart.yaml names no chart) (Chart.yaml has no version), helm v4.3.2',
  },
  {
    name: 'a kustomization names its path and tree id',
    given: api,
    want: 'KustomizeSource/api (sources/api.yaml): kustomization kustomize/prod a1b2c3, kustomize v5.8.2',
  },
];
for (const c of cases) test(c.name, () => assert.equal(describeProvenance(c.given), c.want));

test('a commit names each changed source once, sorted, and past the bound a count', () => {
  assert.deepEqual(templateSourceLines([web, api, web]), [
    `Gitfleet-Template-Source: ${describeProvenance(web)}`,
    `Gitfleet-Template-Source: ${describeProvenance(api)}`,
  ]);
  const many = Array.from({ length: maxSourceTrailers + 3 }, (_, i) => ({ ...api, name: `api${i}` }));
  const lines = templateSourceLines(many);
  assert.equal(lines.length, maxSourceTrailers + 1);
  assert.equal(
    lines.at(-1),
    "Gitfleet-Template-Source: … and 3 more (the bindings records name each template's source)",
  );
});

const binding = {
  name: 'web-deployment',
  key: 'apps/Deployment/shop/web',
  resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
  origin: 'policy',
  policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'shop' },
  replicas: 2,
  schedule: { type: 'Scheduled', clusters: [{ name: 'east', replicas: 2 }] },
  placement: {},
  propagateDeps: false,
  conflictResolution: 'Abort',
  preserveResourcesOnDeletion: false,
  requiredBy: [],
} as unknown as Binding;

test('the binding record names the template source in spec.templateSource and reads it back', () => {
  const provenance: TemplateProvenance = {
    ...web,
    renderedFile: 'sources/web.yaml@web/templates/deployment.yaml',
    groups: [['east'], ['west']],
  };
  const text = bindingRecord(binding, undefined, provenance);
  assert.match(text, /^ {2}templateSource:\n {4}chart:\n {6}digest: sha256:6d46\n/m);
  assert.deepEqual(parseBindingView(text)?.templateSource, provenance);
  const plain = bindingRecord(binding);
  assert.doesNotMatch(plain, /templateSource/);
  assert.equal(parseBindingView(plain)?.templateSource, undefined);
  const other = bindingRecord(binding, undefined, { ...provenance, tool: 'helm v4.3.3' });
  assert.notEqual(other, text, 'a new tool version alone changes the record');
});

test('the sources of changed objects are read from their gitfleet.io/source annotation', () => {
  const object = (file: string) =>
    `apiVersion: v1\nkind: Service\nmetadata:\n  annotations:\n    gitfleet.io/source: ${file}\n  name: web\n`;
  assert.equal(
    renderedSourceFile(object("'sources/web.yaml@web/templates/service.yaml'")),
    'sources/web.yaml@web/templates/service.yaml',
  );
  const provenance = new Map([
    ['sources/web.yaml@web/templates/service.yaml', web],
    ['sources/api.yaml@kustomize/prod/kustomize.yaml', api],
  ]);
  assert.deepEqual(
    changedSources(
      [
        object('sources/web.yaml@web/templates/service.yaml'),
        undefined,
        object('apps/plain.yaml'),
        object('sources/web.yaml@web/templates/service.yaml'),
      ],
      provenance,
    ),
    [web],
  );
  assert.deepEqual(changedSources([object('sources/web.yaml@web/templates/service.yaml')], undefined), []);
});
