// Unknown fields of Karmada's kinds and of the FleetConfig are load errors naming the file, the
// document, the line of the field, its path and the field it most likely meant. The valid fields
// at each place are Karmada's (the file each row's expectation comes from is named in the row).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, type LoadError } from '../../../src/core/load/load-fleet.js';
import type { SourceFile } from '../../../src/core/load/source-file.js';

interface Row {
  name: string;
  /** The Karmada source the valid field set comes from. */
  source: string;
  given: SourceFile;
  want: LoadError;
}

const deployment = ['apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: web, namespace: shop}'];

const lines = (...text: string[]) => text.join('\n') + '\n';

const rows: Row[] = [
  {
    name: 'A misspelled clusterAffinity in a PropagationPolicy is an error suggesting clusterAffinity.',
    source: 'Karmada pkg/apis/policy/v1alpha1/propagation_types.go (Placement)',
    given: {
      path: 'policies/web.yaml',
      content: lines(
        ...deployment,
        '---',
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: PropagationPolicy',
        'metadata:',
        '  name: web',
        '  namespace: shop',
        'spec:',
        '  resourceSelectors:',
        '    - apiVersion: apps/v1',
        '      kind: Deployment',
        '  placement:',
        '    clusterAfinity:',
        '      clusterNames: [member1]',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'policies/web.yaml',
      index: 1,
      line: 15,
      message:
        'PropagationPolicy/shop/web: spec.placement.clusterAfinity: unknown field; did you mean clusterAffinity?',
    },
  },
  {
    name: 'A field written with the wrong case is matched case-insensitively first (ClusterAffinity for clusterAffinity).',
    source: 'Karmada pkg/apis/policy/v1alpha1/propagation_types.go (Placement)',
    given: {
      path: 'cpp.yaml',
      content: lines(
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: ClusterPropagationPolicy',
        'metadata: {name: all}',
        'spec:',
        '  resourceSelectors: [{apiVersion: v1, kind: Namespace}]',
        '  placement:',
        '    ClusterAffinity: {clusterNames: [member1]}',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'cpp.yaml',
      index: 0,
      line: 7,
      message:
        'ClusterPropagationPolicy/all: spec.placement.ClusterAffinity: unknown field; did you mean clusterAffinity?',
    },
  },
  {
    name: 'A typo inside a list item names the item in the path (spreadConstraints[1].maxGroup).',
    source: 'Karmada pkg/apis/policy/v1alpha1/propagation_types.go (SpreadConstraint)',
    given: {
      path: 'pp.yaml',
      content: lines(
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: PropagationPolicy',
        'metadata: {name: spread}',
        'spec:',
        '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]',
        '  placement:',
        '    spreadConstraints:',
        '      - spreadByField: cluster',
        '        maxGroups: 2',
        '      - spreadByField: region',
        '        maxGroup: 1',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'pp.yaml',
      index: 0,
      line: 11,
      message:
        'PropagationPolicy/default/spread: spec.placement.spreadConstraints[1].maxGroup: unknown field; did you mean maxGroups?',
    },
  },
  {
    name: 'A typo in a label selector shared by every selector is caught inside a cluster affinity term.',
    source:
      'k8s.io/apimachinery/pkg/apis/meta/v1/types.go (LabelSelector), as Placement.ClusterAffinities uses it',
    given: {
      path: 'pp.yaml',
      content: lines(
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: PropagationPolicy',
        'metadata: {name: groups, namespace: shop}',
        'spec:',
        '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]',
        '  placement:',
        '    clusterAffinities:',
        '      - affinityName: primary',
        '        labelSelector:',
        '          matchLabel: {tier: gold}',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'pp.yaml',
      index: 0,
      line: 10,
      message:
        'PropagationPolicy/shop/groups: spec.placement.clusterAffinities[0].labelSelector.matchLabel: unknown field; did you mean matchLabels?',
    },
  },
  {
    name: 'A misspelled overrider in an OverridePolicy is an error suggesting the overrider.',
    source: 'Karmada pkg/apis/policy/v1alpha1/override_types.go (Overriders)',
    given: {
      path: 'op.yaml',
      content: lines(
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: OverridePolicy',
        'metadata: {name: images, namespace: shop}',
        'spec:',
        '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]',
        '  overrideRules:',
        '    - targetCluster: {clusterNames: [member1]}',
        '      overriders:',
        '        imageOverider:',
        '          - component: Registry',
        '            operator: replace',
        '            value: mirror.example.com',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'op.yaml',
      index: 0,
      line: 9,
      message:
        'OverridePolicy/shop/images: spec.overrideRules[0].overriders.imageOverider: unknown field; did you mean imageOverrider?',
    },
  },
  {
    name: 'A typo in a ClusterOverridePolicy field patch is an error suggesting subPath.',
    source: 'Karmada pkg/apis/policy/v1alpha1/override_types.go (JSONPatchOperation)',
    given: {
      path: 'cop.yaml',
      content: lines(
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: ClusterOverridePolicy',
        'metadata: {name: cfg}',
        'spec:',
        '  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]',
        '  overrideRules:',
        '    - overriders:',
        '        fieldOverrider:',
        '          - fieldPath: /data/config.json',
        '            json:',
        '              - subpath: /level',
        '                operator: replace',
        '                value: debug',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'cop.yaml',
      index: 0,
      line: 11,
      message:
        'ClusterOverridePolicy/cfg: spec.overrideRules[0].overriders.fieldOverrider[0].json[0].subpath: unknown field; did you mean subPath?',
    },
  },
  {
    name: 'A misspelled Cluster spec field is an error suggesting the field.',
    source: 'Karmada pkg/apis/cluster/v1alpha1/types.go (ClusterSpec)',
    given: {
      path: 'clusters/member1.yaml',
      content: lines(
        'apiVersion: cluster.karmada.io/v1alpha1',
        'kind: Cluster',
        'metadata:',
        '  name: member1',
        'spec:',
        '  syncMode: Pull',
        '  regoin: eu-west-1',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'clusters/member1.yaml',
      index: 0,
      line: 7,
      message: 'Cluster/member1: spec.regoin: unknown field; did you mean region?',
    },
  },
  {
    name: 'A misspelled taint field of a Cluster is an error suggesting effect.',
    source:
      'k8s.io/api/core/v1/types.go (Taint), as Karmada pkg/apis/cluster/v1alpha1/types.go ClusterSpec.Taints uses it',
    given: {
      path: 'clusters/member2.yaml',
      content: lines(
        'apiVersion: cluster.karmada.io/v1alpha1',
        'kind: Cluster',
        'metadata: {name: member2}',
        'spec:',
        '  taints:',
        '    - key: dedicated',
        '      efect: NoSchedule',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'clusters/member2.yaml',
      index: 0,
      line: 7,
      message: 'Cluster/member2: spec.taints[0].efect: unknown field; did you mean effect?',
    },
  },
  {
    name: 'A metadata field that ObjectMeta does not have is an error on a Karmada kind too.',
    source:
      'k8s.io/apimachinery/pkg/apis/meta/v1/types.go (ObjectMeta), as Karmada pkg/apis/policy/v1alpha1/propagation_types.go PropagationPolicy embeds it',
    given: {
      path: 'pp.yaml',
      content: lines(
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: PropagationPolicy',
        'metadata:',
        '  name: web',
        '  label: {team: shop}',
        'spec:',
        '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'pp.yaml',
      index: 0,
      line: 5,
      message: 'PropagationPolicy/default/web: metadata.label: unknown field; did you mean labels?',
    },
  },
  {
    name: 'A misspelled customization of a ResourceInterpreterCustomization is an error suggesting the operation.',
    source: 'Karmada pkg/apis/config/v1alpha1/resourceinterpretercustomization_types.go (CustomizationRules)',
    given: {
      path: 'interpreters/widget.yaml',
      content: lines(
        'apiVersion: config.karmada.io/v1alpha1',
        'kind: ResourceInterpreterCustomization',
        'metadata: {name: widget}',
        'spec:',
        '  target: {apiVersion: example.com/v1, kind: Widget}',
        '  customizations:',
        '    healthInterpretaton:',
        '      luaScript: "function InterpretHealth(obj) return true end"',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'interpreters/widget.yaml',
      index: 0,
      line: 7,
      message:
        'ResourceInterpreterCustomization/widget: spec.customizations.healthInterpretaton: unknown field; did you mean healthInterpretation?',
    },
  },
  {
    name: 'A misspelled FleetConfig field is an error suggesting the field gitfleet reads.',
    source: "gitfleet's own FleetConfig (src/core/load/parse-fleet-config.ts)",
    given: {
      path: 'fleet.yaml',
      content: lines(
        'apiVersion: gitfleet.io/v1alpha1',
        'kind: FleetConfig',
        'metadata: {name: fleet}',
        'spec:',
        '  paths:',
        '    exlude: ["legacy/**"]',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'fleet.yaml',
      index: 0,
      line: 6,
      message: 'FleetConfig/fleet: spec.paths.exlude: unknown field; did you mean exclude?',
    },
  },
  {
    name: 'A field far from every valid one gets no suggestion.',
    source: 'Karmada pkg/apis/policy/v1alpha1/propagation_types.go (PropagationSpec)',
    given: {
      path: 'pp.yaml',
      content: lines(
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: PropagationPolicy',
        'metadata: {name: web}',
        'spec:',
        '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]',
        '  rollout: {maxUnavailableClusters: 1}',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'pp.yaml',
      index: 0,
      line: 6,
      message: 'PropagationPolicy/default/web: spec.rollout: unknown field',
    },
  },
  {
    name: 'A policy inside a v1 List is checked too, and the message names the item.',
    source: 'Karmada pkg/apis/policy/v1alpha1/propagation_types.go (PropagationSpec)',
    given: {
      path: 'list.yaml',
      content: lines(
        'apiVersion: v1',
        'kind: List',
        'items:',
        '  - apiVersion: policy.karmada.io/v1alpha1',
        '    kind: PropagationPolicy',
        '    metadata: {name: web}',
        '    spec:',
        '      resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]',
        '      propagateDep: true',
      ),
    },
    want: {
      code: 'UnknownField',
      file: 'list.yaml',
      index: 0,
      line: 9,
      message:
        'items[0]: PropagationPolicy/default/web: spec.propagateDep: unknown field; did you mean propagateDeps?',
    },
  },
];

for (const row of rows) {
  test(`${row.name} (valid fields: ${row.source})`, () => {
    const loaded = loadFleet([row.given]);
    assert.equal(loaded.ok, false, 'the fleet must not load');
    if (loaded.ok) return;
    // A missing required field beside the typo is the parsers' error, reported as well.
    assert.deepEqual(
      loaded.errors.filter((e) => e.code === 'UnknownField'),
      [row.want],
    );
  });
}

test('Every unknown field of a document is reported, each at its own line, in document order.', () => {
  const loaded = loadFleet([
    {
      path: 'pp.yaml',
      content: lines(
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: PropagationPolicy',
        'metadata: {name: web}',
        'spec:',
        '  resourceSelector: [{apiVersion: apps/v1, kind: Deployment}]',
        '  placement:',
        '    replicaScheduling:',
        '      replicaSchedulingTyp: Divided',
      ),
    },
  ]);
  assert.equal(loaded.ok, false);
  if (loaded.ok) return;
  assert.deepEqual(
    loaded.errors.filter((e) => e.code === 'UnknownField').map((e) => [e.line, e.message]),
    [
      [
        5,
        'PropagationPolicy/default/web: spec.resourceSelector: unknown field; did you mean resourceSelectors?',
      ],
      [
        8,
        'PropagationPolicy/default/web: spec.placement.replicaScheduling.replicaSchedulingTyp: unknown field; did you mean replicaSchedulingType?',
      ],
    ],
  );
});

test('A file the FleetConfig excludes is not checked, as it is not read.', () => {
  const loaded = loadFleet([
    {
      path: 'fleet.yaml',
      content: lines(
        'apiVersion: gitfleet.io/v1alpha1',
        'kind: FleetConfig',
        'metadata: {name: fleet}',
        'spec: {paths: {exclude: ["legacy/**"]}}',
      ),
    },
    {
      path: 'legacy/pp.yaml',
      content: lines(
        'apiVersion: policy.karmada.io/v1alpha1',
        'kind: PropagationPolicy',
        'metadata: {name: old}',
        'spec: {resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}], placemnt: {}}',
      ),
    },
  ]);
  assert.equal(loaded.ok, true, loaded.ok ? '' : JSON.stringify(loaded.errors));
});
