// Small builders for loader tests: documents as JSON text (JSON is YAML), files, and loading.
import {
  loadFleet,
  type LoadError,
  type LoadOptions,
  type SourceFile,
} from '../../../src/core/load/load-fleet.js';
import type { Fleet } from '../../../src/core/model/fleet.js';

/** Returns a document as YAML text (JSON is a subset of YAML). */
export function yamlOf(doc: unknown): string {
  return JSON.stringify(doc);
}

/** Returns a file holding the given documents, separated by `---`. */
export function fileOf(path: string, ...docs: unknown[]): SourceFile {
  return { path, content: docs.map((d) => (typeof d === 'string' ? d : yamlOf(d))).join('\n---\n') + '\n' };
}

/** Returns a policy.karmada.io/v1alpha1 document. */
export function policyDoc(
  kind: string,
  name: string,
  spec: unknown,
  namespace?: string,
): Record<string, unknown> {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind,
    metadata: namespace === undefined ? { name } : { name, namespace },
    spec,
  };
}

/** Returns a PropagationPolicy in namespace `default` selecting Deployments, with `placement`. */
export function ppWithPlacement(
  placement: unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return policyDoc(
    'PropagationPolicy',
    'pp',
    { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement, ...extra },
    'default',
  );
}

/** Returns a ConfigMap document. */
export function configMapDoc(name: string, namespace = 'default'): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { k: 'v' } };
}

/** Returns a Cluster document. */
export function clusterDoc(
  name: string,
  spec: unknown = {},
  labels?: Record<string, unknown>,
): Record<string, unknown> {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: labels === undefined ? { name } : { name, labels },
    spec,
  };
}

/** Returns the fleet, failing the test with the errors when it does not load. */
export function mustLoad(files: SourceFile[], options?: LoadOptions): Fleet {
  const result = loadFleet(files, options);
  if (!result.ok)
    throw new Error(`expected the fleet to load, got: ${JSON.stringify(result.errors, null, 2)}`);
  return result.fleet;
}

/** Returns the errors, failing the test when the fleet loads. */
export function mustFail(files: SourceFile[], options?: LoadOptions): LoadError[] {
  const result = loadFleet(files, options);
  if (result.ok) throw new Error('expected the fleet to fail to load, but it loaded');
  return result.errors;
}
