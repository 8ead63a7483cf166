// Unknown fields of built-in kinds are warnings, not errors: the fleet loads, as the API server's
// default field validation (Warn) accepts the object without the field. The valid fields come
// from Kubernetes' OpenAPI v3 (src/core/load/schema/builtin-field-data.ts); maps
// (additionalProperties), x-kubernetes-preserve-unknown-fields and free-form objects take any key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, type LoadError } from '../../../src/core/load/load-fleet.js';
import { builtinKinds } from '../../../src/core/load/schema/builtin-schemas.js';

const lines = (...text: string[]) => text.join('\n') + '\n';

interface Row {
  name: string;
  content: string;
  /** The UnknownField warnings, as [line, message]. */
  want: [number, string][];
}

const deployment = (...containerLines: string[]) =>
  lines(
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    '  labels: {app: web, example.com/any-key: yes}',
    '  annotations: {note: free text}',
    'spec:',
    '  selector: {matchLabels: {app: web}}',
    '  template:',
    '    metadata: {labels: {app: web}}',
    '    spec:',
    '      containers:',
    '        - name: web',
    '          image: nginx:1.27',
    ...containerLines,
  );

const rows: Row[] = [
  {
    name: 'A misspelled container field of a Deployment is a warning suggesting the field (io.k8s.api.core.v1.Container).',
    content: deployment('          imagePullPolice: Always'),
    want: [
      [
        15,
        'Deployment/default/web: spec.template.spec.containers[0].imagePullPolice: unknown field ' +
          '(the API server drops it and warns, as it does on apply); did you mean imagePullPolicy?',
      ],
    ],
  },
  {
    name: 'Resource limits and requests are maps of any resource name (io.k8s.api.core.v1.ResourceRequirements).',
    content: deployment(
      '          resources:',
      '            limits: {cpu: "1", example.com/gpu: "2"}',
      '            requests: {memory: 1Gi}',
    ),
    want: [],
  },
  {
    name: 'A ConfigMap takes any data key, and a misspelled top-level field is a warning (io.k8s.api.core.v1.ConfigMap).',
    content: lines(
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: cfg, namespace: shop}',
      'data: {app.properties: "a=1", other: x}',
      'immutible: true',
    ),
    want: [
      [
        5,
        'ConfigMap/shop/cfg: immutible: unknown field (the API server drops it and warns, as it does on apply); did you mean immutable?',
      ],
    ],
  },
  {
    name: "A CRD's schema is checked through its recursive properties map, and its free-form default and x-kubernetes-preserve-unknown-fields parts take anything (io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps).",
    content: lines(
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      'metadata: {name: widgets.example.com}',
      'spec:',
      '  group: example.com',
      '  names: {kind: Widget, plural: widgets}',
      '  scope: Namespaced',
      '  versions:',
      '    - name: v1',
      '      served: true',
      '      storage: true',
      '      schema:',
      '        openAPIV3Schema:',
      '          type: object',
      '          properties:',
      '            spec:',
      '              type: object',
      '              default: {size: 1, anything: [goes]}',
      '              x-kubernetes-preserve-unknown-fields: true',
      '              properties:',
      '                size: {typ: integer}',
    ),
    want: [
      [
        21,
        'CustomResourceDefinition/widgets.example.com: spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].typ: ' +
          'unknown field (the API server drops it and warns, as it does on apply); did you mean type?',
      ],
    ],
  },
  {
    name: "A ControllerRevision's data is a free-form object (io.k8s.apimachinery.pkg.runtime.RawExtension).",
    content: lines(
      'apiVersion: apps/v1',
      'kind: ControllerRevision',
      'metadata: {name: web-1, namespace: shop}',
      'revision: 1',
      'data: {spec: {anything: here}}',
    ),
    want: [],
  },
  {
    name: 'A HorizontalPodAutoscaler is checked at the version it is written in (autoscaling/v2 metrics, not autoscaling/v1).',
    content: lines(
      'apiVersion: autoscaling/v2',
      'kind: HorizontalPodAutoscaler',
      'metadata: {name: web, namespace: shop}',
      'spec:',
      '  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}',
      '  maxReplicas: 5',
      '  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}}]',
      '  targetCPUUtilizationPercentage: 80',
    ),
    want: [
      [
        8,
        'HorizontalPodAutoscaler/shop/web: spec.targetCPUUtilizationPercentage: unknown field (the API server drops it and warns, as it does on apply)',
      ],
    ],
  },
  {
    name: 'A custom resource is not checked: its schema is its CRD, which the fleet may not hold.',
    content: lines(
      'apiVersion: example.com/v1',
      'kind: Widget',
      'metadata: {name: w, namespace: shop}',
      'spec: {anything: 1}',
    ),
    want: [],
  },
  {
    name: 'A built-in kind at a version the data does not have is not checked.',
    content: lines(
      'apiVersion: apps/v1beta9',
      'kind: Deployment',
      'metadata: {name: old, namespace: shop}',
      'spec: {anything: 1}',
    ),
    want: [],
  },
  {
    name: 'An item of a v1 List is checked, and the warning names the item.',
    content: lines(
      'apiVersion: v1',
      'kind: List',
      'items:',
      '  - apiVersion: v1',
      '    kind: Service',
      '    metadata: {name: web, namespace: shop}',
      '    spec:',
      '      ports: [{port: 80, targetPort: 8080}]',
      '      selectr: {app: web}',
    ),
    want: [
      [
        9,
        'items[0]: Service/shop/web: spec.selectr: unknown field (the API server drops it and warns, as it does on apply); did you mean selector?',
      ],
    ],
  },
];

for (const row of rows) {
  test(row.name, () => {
    const loaded = loadFleet([{ path: 'apps/a.yaml', content: row.content }]);
    assert.equal(loaded.ok, true, loaded.ok ? '' : JSON.stringify(loaded.errors, null, 2));
    assert.deepEqual(
      loaded.warnings.map((w: LoadError) => [w.line, w.message]),
      row.want,
    );
    for (const w of loaded.warnings)
      assert.deepEqual([w.code, w.file, w.index], ['UnknownField', 'apps/a.yaml', 0]);
  });
}

test('An unknown field of a built-in kind does not hide the errors of a policy in the same load.', () => {
  const loaded = loadFleet([
    { path: 'apps/a.yaml', content: deployment('          imagePullPolice: Always') },
    {
      path: 'pp.yaml',
      content: lines(
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: PropagationPolicy',
        'metadata: {name: web}',
        'spec: {resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}], placemnt: {}}',
      ),
    },
  ]);
  assert.equal(loaded.ok, false);
  assert.deepEqual(
    loaded.warnings.map((w) => w.file),
    ['apps/a.yaml'],
  );
});

test('The data covers the common kinds of apps/v1, batch/v1, v1, networking, rbac, policy and autoscaling.', () => {
  const kinds = new Set(builtinKinds());
  for (const kind of [
    'apps/v1 Deployment',
    'apps/v1 StatefulSet',
    'apps/v1 DaemonSet',
    'batch/v1 Job',
    'batch/v1 CronJob',
    'v1 Service',
    'v1 ConfigMap',
    'v1 Secret',
    'v1 Namespace',
    'v1 ServiceAccount',
    'v1 PersistentVolumeClaim',
    'networking.k8s.io/v1 Ingress',
    'networking.k8s.io/v1 NetworkPolicy',
    'rbac.authorization.k8s.io/v1 ClusterRole',
    'rbac.authorization.k8s.io/v1 RoleBinding',
    'policy/v1 PodDisruptionBudget',
    'autoscaling/v1 HorizontalPodAutoscaler',
    'autoscaling/v2 HorizontalPodAutoscaler',
  ])
    assert.ok(kinds.has(kind), kind);
});

test('A load reusing the memo of the last one reports the same unknown fields, errors and warnings, for unchanged files.', () => {
  const files = [
    { path: 'apps/a.yaml', content: deployment('          imagePullPolice: Always') },
    {
      path: 'pp.yaml',
      content: lines(
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: PropagationPolicy',
        'metadata: {name: web}',
        'spec: {resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}], placemnt: {}}',
      ),
    },
  ];
  const first = loadFleet(files);
  const again = loadFleet(files, { memo: first.memo });
  assert.deepEqual(again.warnings, first.warnings);
  assert.equal(again.warnings.length, 1);
  assert.deepEqual(again.ok ? [] : again.errors, first.ok ? [] : first.errors);
  assert.equal(again.ok, false);
});
