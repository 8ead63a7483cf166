// The fleet repository of the multi-cluster services benchmarks (bench/mcs-churn.ts,
// bench/mcs-latency.ts): a local git repository with a work tree, committed to with the git
// command line as a user does, and the documents both fleets are made of.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** git, with no system or user configuration, as the bench's user (the hub commits as itself). */
export async function git(repo: string, args: readonly string[]): Promise<string> {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const identity = ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com'];
  const { stdout } = await run('git', [...identity, ...args], { cwd: repo, env, maxBuffer: 1 << 28 });
  return stdout;
}

/** Creates the repository (branch main) at `repo`. */
export async function initFleetRepo(repo: string): Promise<void> {
  mkdirSync(repo, { recursive: true });
  await git(repo, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  // The benchmark measures the repository as the hub and agents leave it: no gc behind its back.
  await git(repo, ['config', 'gc.auto', '0']);
}

/** Writes the files into the work tree and commits them on main; returns when the ref moved. */
export async function commitFiles(
  repo: string,
  files: Readonly<Record<string, string>>,
  message: string,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  await git(repo, ['add', '-A', '--', ...Object.keys(files)]);
  await git(repo, ['commit', '-q', '-m', message]);
}

export { clusterDoc, mcsCrds } from '../test/support/fleet-docs.js';

/** A ClusterPropagationPolicy placing the two CRDs on the clusters named. */
export function crdPolicy(clusters: readonly string[]): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: mcs-crds}
spec:
  resourceSelectors:
    - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: serviceexports.multicluster.x-k8s.io}
    - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: serviceimports.multicluster.x-k8s.io}
  placement: {clusterAffinity: {clusterNames: [${clusters.join(', ')}]}}
`;
}

/** A Deployment, its Service, ServiceExport and ServiceImport of one name. */
export function exportedApp(opts: { namespace: string; name: string; replicas: number }): string {
  const { namespace, name } = opts;
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${namespace}, labels: {bench: mcs}}
spec:
  replicas: ${opts.replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}, bench: mcs}}
    spec:
      containers:
        - name: ${name}
          image: registry.invalid/${name}:1
          ports: [{containerPort: 8080, name: http}]
---
apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  selector: {app: ${name}}
  ports: [{name: http, port: 80, targetPort: 8080, protocol: TCP}]
---
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceExport
metadata: {name: ${name}, namespace: ${namespace}}
---
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  type: ClusterSetIP
  ports: [{name: http, port: 80, protocol: TCP}]
`;
}

/**
 * Two PropagationPolicies of the namespace: every Deployment, Service and ServiceExport to the
 * exporting clusters (Duplicated: each runs `replicas`), every ServiceImport to the importing ones.
 */
export function mcsPolicies(opts: {
  namespace: string;
  exporters: readonly string[];
  importers: readonly string[];
}): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: providers, namespace: ${opts.namespace}}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment}
    - {apiVersion: v1, kind: Service}
    - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceExport}
  placement:
    clusterAffinity: {clusterNames: [${opts.exporters.join(', ')}]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: consumers, namespace: ${opts.namespace}}
spec:
  resourceSelectors:
    - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport}
  placement: {clusterAffinity: {clusterNames: [${opts.importers.join(', ')}]}}
`;
}

/** The Namespace document. */
export function namespaceDoc(name: string): string {
  return `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${name}}\n`;
}
