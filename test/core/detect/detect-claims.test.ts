import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectClaims } from '../../../src/core/detect/detect-claims.js';
import { compileSkipRules } from '../../../src/core/detect/skip-rules.js';
import type { PreviousBinding } from '../../../src/core/model/binding.js';
import { defaultFleetConfig } from '../../../src/core/model/fleet-config.js';
import type { Template } from '../../../src/core/model/fleet.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { refKey } from '../../../src/core/model/object-ref.js';
import type { PolicyRef, PropagationPolicy } from '../../../src/core/model/propagation-policy.js';
import type { ResourceSelector } from '../../../src/core/model/selectors.js';
import { aConfigMap, aDeployment, aPropagationPolicy } from '../builders.js';

function template(object: KubeObject): Template {
  const ref = {
    apiVersion: object.apiVersion,
    kind: object.kind,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name,
  };
  return { ref, key: refKey(ref), object, source: { file: 't.yaml', index: 0 } };
}

const deploy = (name: string, labels?: Record<string, string>) => aDeployment(name, labels ? { labels } : {});
const byKind = { apiVersion: 'apps/v1', kind: 'Deployment' };
const cpp = (name: string, extra: Partial<PropagationPolicy> = {}) =>
  aPropagationPolicy(name, [byKind], { namespace: '', ...extra });
const pp = (name: string, extra: Partial<PropagationPolicy> = {}, selectors: ResourceSelector[] = [byKind]) =>
  aPropagationPolicy(name, selectors, extra);

function claimOf(opts: { object: KubeObject; policies: PropagationPolicy[]; previous?: PolicyRef }): {
  policy: string | undefined;
  how: string | undefined;
} {
  const t = template(opts.object);
  const previous = new Map<string, PreviousBinding>();
  if (opts.previous) previous.set(t.key, { key: t.key, policy: opts.previous, clusters: [] });
  const result = detectClaims({
    templates: [t],
    policies: opts.policies,
    previous,
    skipRules: compileSkipRules(defaultFleetConfig()),
  });
  const claim = result.claims[0];
  return { policy: claim?.policy.name, how: claim?.how };
}

const ref = (p: PropagationPolicy): PolicyRef => ({ kind: p.kind, namespace: p.namespace, name: p.name });

const cases: { name: string; given: Parameters<typeof claimOf>[0]; want: ReturnType<typeof claimOf> }[] = [
  {
    name: 'a higher explicit priority wins over a more precise selector',
    given: {
      object: deploy('web'),
      policies: [pp('by-name', {}, [{ ...byKind, name: 'web' }]), pp('by-kind', { priority: 5 })],
    },
    want: { policy: 'by-kind', how: 'matched' },
  },
  {
    name: 'with equal priority a name selector beats a label selector beats kind only',
    given: {
      object: deploy('web', { app: 'web' }),
      policies: [
        pp('a-kind'),
        pp('b-label', {}, [{ ...byKind, labelSelector: { matchLabels: { app: 'web' } } }]),
        pp('c-name', {}, [{ ...byKind, name: 'web' }]),
      ],
    },
    want: { policy: 'c-name', how: 'matched' },
  },
  {
    name: 'with equal priority and precision the smaller policy name wins',
    given: { object: deploy('web'), policies: [pp('foo'), pp('bar')] },
    want: { policy: 'bar', how: 'matched' },
  },
  {
    name: "a PropagationPolicy of the template's namespace beats a higher-priority ClusterPropagationPolicy",
    given: { object: deploy('web'), policies: [cpp('cluster-wide', { priority: 100 }), pp('local')] },
    want: { policy: 'local', how: 'matched' },
  },
  {
    name: 'a PropagationPolicy of another namespace never matches',
    given: { object: deploy('web'), policies: [pp('elsewhere', { namespace: 'other' })] },
    want: { policy: undefined, how: undefined },
  },
  {
    name: 'without a namespaced match the best ClusterPropagationPolicy wins',
    given: { object: deploy('web'), policies: [cpp('b'), cpp('a')] },
    want: { policy: 'a', how: 'matched' },
  },
  {
    name: 'a label selector that does not match is no match',
    given: {
      object: deploy('web', { app: 'web' }),
      policies: [pp('other-app', {}, [{ ...byKind, labelSelector: { matchLabels: { app: 'api' } } }])],
    },
    want: { policy: undefined, how: undefined },
  },
  {
    name: 'a claim sticks even when a better policy appears without preemption',
    given: {
      object: deploy('web'),
      policies: [pp('old'), pp('new', { priority: 9 })],
      previous: { kind: 'PropagationPolicy', namespace: 'default', name: 'old' },
    },
    want: { policy: 'old', how: 'sticky' },
  },
  {
    name: 'a higher-priority policy with preemption Always takes over a PropagationPolicy claim',
    given: {
      object: deploy('web'),
      policies: [pp('old', { priority: 1 }), pp('new', { priority: 2, preemption: 'Always' })],
      previous: { kind: 'PropagationPolicy', namespace: 'default', name: 'old' },
    },
    want: { policy: 'new', how: 'preempted' },
  },
  {
    name: 'preemption needs a strictly higher explicit priority',
    given: {
      object: deploy('web'),
      policies: [
        pp('old', { priority: 2 }),
        pp('new', { priority: 2, preemption: 'Always' }, [{ ...byKind, name: 'web' }]),
      ],
      previous: { kind: 'PropagationPolicy', namespace: 'default', name: 'old' },
    },
    want: { policy: 'old', how: 'sticky' },
  },
  {
    name: 'a PropagationPolicy with preemption Always takes any ClusterPropagationPolicy claim, whatever the priorities',
    given: {
      object: deploy('web'),
      policies: [cpp('cluster', { priority: 50 }), pp('local', { priority: 0, preemption: 'Always' })],
      previous: { kind: 'ClusterPropagationPolicy', namespace: '', name: 'cluster' },
    },
    want: { policy: 'local', how: 'preempted' },
  },
  {
    name: 'a ClusterPropagationPolicy never preempts a PropagationPolicy claim',
    given: {
      object: deploy('web'),
      policies: [pp('local'), cpp('cluster', { priority: 50, preemption: 'Always' })],
      previous: { kind: 'PropagationPolicy', namespace: 'default', name: 'local' },
    },
    want: { policy: 'local', how: 'sticky' },
  },
  {
    name: 'a ClusterPropagationPolicy with preemption Always takes a lower-priority ClusterPropagationPolicy claim',
    given: {
      object: deploy('web'),
      policies: [cpp('low', { priority: 1 }), cpp('high', { priority: 3, preemption: 'Always' })],
      previous: { kind: 'ClusterPropagationPolicy', namespace: '', name: 'low' },
    },
    want: { policy: 'high', how: 'preempted' },
  },
  {
    name: 'a claim whose policy is gone is matched afresh',
    given: {
      object: deploy('web'),
      policies: [pp('replacement')],
      previous: { kind: 'PropagationPolicy', namespace: 'default', name: 'deleted' },
    },
    want: { policy: 'replacement', how: 'matched' },
  },
  {
    name: 'a claim whose policy no longer selects the template is matched afresh',
    given: {
      object: deploy('web'),
      policies: [pp('narrowed', {}, [{ ...byKind, name: 'api' }]), pp('wide')],
      previous: { kind: 'PropagationPolicy', namespace: 'default', name: 'narrowed' },
    },
    want: { policy: 'wide', how: 'matched' },
  },
];

for (const c of cases) {
  test(c.name, () => assert.deepEqual(claimOf(c.given), c.want));
}

test('templates in reserved or skipped namespaces, skipped APIs and claimed-by templates are skipped', () => {
  const objects: KubeObject[] = [
    aConfigMap('a', {}, 'karmada-system'),
    aConfigMap('b', {}, 'karmada-es-member1'),
    aConfigMap('c', {}, 'kube-system'),
    { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'default' } },
    { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e2', namespace: 'default' } },
    { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l', namespace: 'default' } },
    { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' } },
    {
      ...aConfigMap('d'),
      metadata: {
        name: 'd',
        namespace: 'default',
        labels: { 'resourcetemplate.karmada.io/claimed-by': 'mcs' },
      },
    },
    aConfigMap('kept'),
  ];
  const config = { ...defaultFleetConfig(), skippedApis: ['example.com/v1/Widget'] };
  const policy = aPropagationPolicy('all', [], { namespace: '' });
  policy.resourceSelectors = objects.map((o) => ({ apiVersion: o.apiVersion, kind: o.kind }));
  const result = detectClaims({
    templates: objects.map(template),
    policies: [policy],
    previous: new Map(),
    skipRules: compileSkipRules(config),
  });
  assert.deepEqual(
    result.claims.map((c) => c.template.ref.name),
    ['kept'],
  );
  assert.equal(result.skipped.length, objects.length - 1);
});

test('skipped namespaces are regexes anchored at both ends', () => {
  const rules = compileSkipRules({ ...defaultFleetConfig(), skippedNamespaces: ['team-.*', 'exact'] });
  const names = ['team-a', 'exact', 'not-exact', 'exactly', 'my-team-a'];
  const policy = aPropagationPolicy('all', [{ apiVersion: 'v1', kind: 'ConfigMap' }], { namespace: '' });
  const result = detectClaims({
    templates: names.map((ns) => template(aConfigMap('x', {}, ns))),
    policies: [policy],
    previous: new Map(),
    skipRules: rules,
  });
  assert.deepEqual(
    result.claims.map((c) => c.template.ref.namespace),
    ['not-exact', 'exactly', 'my-team-a'],
  );
});

test('the ref helper keeps policy identity', () => {
  const p = pp('x');
  assert.deepEqual(ref(p), { kind: 'PropagationPolicy', namespace: 'default', name: 'x' });
});
