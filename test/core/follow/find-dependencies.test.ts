import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findDependencies } from '../../../src/core/follow/find-dependencies.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import type { ObjectRef } from '../../../src/core/model/object-ref.js';
import { aConfigMap, aDeployment } from '../builders.js';

type PodSpec = Record<string, unknown>;

/** Returns a Deployment `shop/web` whose pod template spec is `podSpec` (plus one container). */
function webWith(podSpec: PodSpec): KubeObject {
  const deployment = aDeployment('web', { namespace: 'shop' });
  const spec = deployment['spec'] as { template: { spec: PodSpec } };
  spec.template.spec = { ...spec.template.spec, ...podSpec };
  return deployment;
}

/** Returns a Deployment `shop/web` with one container carrying the given fields. */
function webWithContainer(fields: Record<string, unknown>): KubeObject {
  return webWith({ containers: [{ name: 'web', image: 'nginx:1.27', ...fields }] });
}

/** Returns a Deployment `shop/web` with one volume of the given source. */
function webWithVolume(source: Record<string, unknown>): KubeObject {
  return webWith({ volumes: [{ name: 'v', ...source }] });
}

function core(kind: string, name: string, namespace = 'shop'): ObjectRef {
  return { apiVersion: 'v1', kind, namespace, name };
}

const secretRef = { secretRef: { name: 'creds' } };

test('every pod-template reference site yields its dependency', () => {
  const cases: { name: string; given: KubeObject; want: ObjectRef[] }[] = [
    {
      name: 'A container envFrom configMapRef depends on the ConfigMap.',
      given: webWithContainer({ envFrom: [{ configMapRef: { name: 'web-env' } }] }),
      want: [core('ConfigMap', 'web-env')],
    },
    {
      name: 'A container env valueFrom configMapKeyRef depends on the ConfigMap.',
      given: webWithContainer({
        env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'web-env', key: 'a' } } }],
      }),
      want: [core('ConfigMap', 'web-env')],
    },
    {
      name: 'A configMap volume depends on the ConfigMap.',
      given: webWithVolume({ configMap: { name: 'web-files' } }),
      want: [core('ConfigMap', 'web-files')],
    },
    {
      name: 'A projected volume configMap source depends on the ConfigMap.',
      given: webWithVolume({ projected: { sources: [{ configMap: { name: 'web-files' } }] } }),
      want: [core('ConfigMap', 'web-files')],
    },
    {
      name: 'An imagePullSecrets entry depends on the Secret.',
      given: webWith({ imagePullSecrets: [{ name: 'registry-creds' }] }),
      want: [core('Secret', 'registry-creds')],
    },
    {
      name: 'A container envFrom secretRef depends on the Secret.',
      given: webWithContainer({ envFrom: [{ secretRef: { name: 'web-env' } }] }),
      want: [core('Secret', 'web-env')],
    },
    {
      name: 'A container env valueFrom secretKeyRef depends on the Secret.',
      given: webWithContainer({
        env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }],
      }),
      want: [core('Secret', 'db')],
    },
    {
      name: 'A secret volume depends on the Secret.',
      given: webWithVolume({ secret: { secretName: 'tls' } }),
      want: [core('Secret', 'tls')],
    },
    {
      name: 'A projected volume secret source depends on the Secret.',
      given: webWithVolume({ projected: { sources: [{ secret: { name: 'tls' } }] } }),
      want: [core('Secret', 'tls')],
    },
    {
      name: 'An azureFile volume depends on its secretName.',
      given: webWithVolume({ azureFile: { secretName: 'azure', shareName: 's' } }),
      want: [core('Secret', 'azure')],
    },
    ...['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'].map((source) => ({
      name: `A ${source} volume depends on its secretRef.`,
      given: webWithVolume({ [source]: secretRef }),
      want: [core('Secret', 'creds')],
    })),
    {
      name: 'A csi volume depends on its nodePublishSecretRef.',
      given: webWithVolume({ csi: { driver: 'x.example.com', nodePublishSecretRef: { name: 'csi-creds' } } }),
      want: [core('Secret', 'csi-creds')],
    },
    {
      name: 'A serviceAccountName depends on the ServiceAccount.',
      given: webWith({ serviceAccountName: 'web' }),
      want: [core('ServiceAccount', 'web')],
    },
    {
      name: 'A persistentVolumeClaim volume depends on the claim.',
      given: webWithVolume({ persistentVolumeClaim: { claimName: 'data' } }),
      want: [core('PersistentVolumeClaim', 'data')],
    },
  ];
  for (const { name, given, want } of cases) assert.deepEqual(findDependencies(given), want, name);
});

test('references count in every kind of container and regardless of optional', () => {
  const envFrom = (name: string) => [{ configMapRef: { name, optional: true } }];
  const cases: { name: string; given: KubeObject; want: ObjectRef[] }[] = [
    {
      name: 'An initContainer reference is a dependency.',
      given: webWith({ initContainers: [{ name: 'init', image: 'busybox', envFrom: envFrom('init-env') }] }),
      want: [core('ConfigMap', 'init-env')],
    },
    {
      name: 'An ephemeralContainer reference is a dependency.',
      given: webWith({
        ephemeralContainers: [{ name: 'debug', image: 'busybox', envFrom: envFrom('debug-env') }],
      }),
      want: [core('ConfigMap', 'debug-env')],
    },
    {
      name: 'An optional secret volume is still a dependency.',
      given: webWithVolume({ secret: { secretName: 'maybe', optional: true } }),
      want: [core('Secret', 'maybe')],
    },
  ];
  for (const { name, given, want } of cases) assert.deepEqual(findDependencies(given), want, name);
});

test('names that cannot be dependencies are left out', () => {
  const cases: { name: string; given: KubeObject; want: ObjectRef[] }[] = [
    {
      name: 'The default service account is not a dependency.',
      given: webWith({ serviceAccountName: 'default' }),
      want: [],
    },
    {
      name: 'An empty service account name is not a dependency.',
      given: webWith({ serviceAccountName: '' }),
      want: [],
    },
    {
      name: 'An empty ConfigMap name is not a dependency.',
      given: webWithVolume({ configMap: { name: '' } }),
      want: [],
    },
    {
      name: 'An emptyDir volume has no dependency.',
      given: webWithVolume({ emptyDir: {} }),
      want: [],
    },
  ];
  for (const { name, given, want } of cases) assert.deepEqual(findDependencies(given), want, name);
});

test('dependencies are deduplicated and sorted by their key', () => {
  const given = webWith({
    serviceAccountName: 'web',
    containers: [
      {
        name: 'a',
        image: 'x',
        envFrom: [{ configMapRef: { name: 'zeta' } }, { secretRef: { name: 'creds' } }],
      },
      {
        name: 'b',
        image: 'x',
        env: [{ name: 'Z', valueFrom: { configMapKeyRef: { name: 'zeta', key: 'z' } } }],
      },
    ],
    volumes: [
      { name: 'cfg', configMap: { name: 'alpha' } },
      { name: 'again', configMap: { name: 'zeta' } },
      { name: 'creds', secret: { secretName: 'creds' } },
      { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
    ],
  });
  assert.deepEqual(findDependencies(given), [
    core('ConfigMap', 'alpha'),
    core('ConfigMap', 'zeta'),
    core('PersistentVolumeClaim', 'data'),
    core('Secret', 'creds'),
    core('ServiceAccount', 'web'),
  ]);
});

/** Returns a workload of the given kind in `jobs` whose pod spec refers to ConfigMap `cfg`. */
function workload(apiVersion: string, kind: string): KubeObject {
  const podSpec = { containers: [{ name: 'c', image: 'x', envFrom: [{ configMapRef: { name: 'cfg' } }] }] };
  const metadata = { name: 'w', namespace: 'jobs' };
  if (kind === 'Pod') return { apiVersion, kind, metadata, spec: podSpec };
  if (kind === 'CronJob') {
    return {
      apiVersion,
      kind,
      metadata,
      spec: { schedule: '@daily', jobTemplate: { spec: { template: { spec: podSpec } } } },
    };
  }
  return { apiVersion, kind, metadata, spec: { template: { spec: podSpec } } };
}

test('each workload kind with a default interpreter reads its pod template', () => {
  const cases = [
    ['apps/v1', 'Deployment'],
    ['apps/v1', 'ReplicaSet'],
    ['apps/v1', 'DaemonSet'],
    ['apps/v1', 'StatefulSet'],
    ['batch/v1', 'Job'],
    ['batch/v1', 'CronJob'],
    ['v1', 'Pod'],
  ].map(([apiVersion = '', kind = '']) => ({
    name: `A ${kind} depends on the ConfigMap its pod template refers to, in its own namespace.`,
    given: workload(apiVersion, kind),
    want: [core('ConfigMap', 'cfg', 'jobs')],
  }));
  for (const { name, given, want } of cases) assert.deepEqual(findDependencies(given), want, name);
});

test('kinds and versions without a default interpreter have no dependencies', () => {
  const cases = [
    ['apps/v1beta2', 'Deployment'],
    ['batch/v1beta1', 'CronJob'],
    ['example.com/v1', 'Widget'],
    ['v1', 'Service'],
  ].map(([apiVersion = '', kind = '']) => ({
    name: `A ${apiVersion} ${kind} has no dependencies even with a pod template.`,
    given: workload(apiVersion, kind),
    want: [] as ObjectRef[],
  }));
  cases.push({ name: 'A ConfigMap has no dependencies.', given: aConfigMap('cfg'), want: [] });
  for (const { name, given, want } of cases) assert.deepEqual(findDependencies(given), want, name);
});

test('a StatefulSet does not depend on claims its volumeClaimTemplates create', () => {
  const given: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'shop' },
    spec: {
      volumeClaimTemplates: [{ metadata: { name: 'data' } }],
      template: {
        spec: {
          containers: [{ name: 'db', image: 'postgres:16' }],
          volumes: [
            { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
            { name: 'shared', persistentVolumeClaim: { claimName: 'shared' } },
          ],
        },
      },
    },
  };
  assert.deepEqual(findDependencies(given), [core('PersistentVolumeClaim', 'shared')]);
});

test('an Ingress depends on its TLS secrets', () => {
  const ingress = (tls: unknown[]): KubeObject => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { tls },
  });
  const cases: { name: string; given: KubeObject; want: ObjectRef[] }[] = [
    {
      name: 'Every TLS secretName is a Secret dependency, deduplicated and sorted.',
      given: ingress([
        { secretName: 'web-tls', hosts: ['a'] },
        { secretName: 'api-tls' },
        { secretName: 'web-tls' },
      ]),
      want: [core('Secret', 'api-tls'), core('Secret', 'web-tls')],
    },
    {
      name: 'A TLS entry without a secretName adds no dependency.',
      given: ingress([{ hosts: ['a'] }]),
      want: [],
    },
  ];
  for (const { name, given, want } of cases) assert.deepEqual(findDependencies(given), want, name);
});

test('a ServiceImport depends on its derived Service', () => {
  const given: KubeObject = {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ServiceImport',
    metadata: { name: 'api', namespace: 'shop' },
    spec: { type: 'ClusterSetIP', ports: [{ port: 80, protocol: 'TCP' }] },
  };
  assert.deepEqual(findDependencies(given), [core('Service', 'derived-api')]);
});
