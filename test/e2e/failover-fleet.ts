// The fleet, settings and probes of the failover end-to-end test (failover.test.ts) and the
// failover benchmark (bench/failover.ts): three clusters, the hub's and agents' small failover
// settings, a ClusterTaintPolicy that taints an unreachable cluster NoExecute, and a Divided
// Deployment over all three.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseBindingView } from '../../src/core/publish/binding-record.js';
import { git, tempDir } from '../git-server/git-cli.js';
import { clusterDoc, noExecuteTaintPolicyDoc } from '../support/fleet-docs.js';

export const minutes = (n: number) => n * 60_000;

/**
 * The hub's failover settings: the monitor's grace periods, NoExecute eviction on, a fast
 * eviction rate. (The ClusterTaintPolicy below adds a NoExecute taint, which the fleet allows in
 * its FleetConfig, as Karmada's webhook does with `--allow-no-execute-taint-policy`.)
 */
export const failoverHubArgs = [
  ...['--cluster-monitor-period', '1s'],
  ...['--cluster-monitor-grace-period', '6s'],
  ...['--cluster-startup-grace-period', '10s'],
  '--enable-no-execute-taint-eviction',
  ...['--resource-eviction-rate', '10'],
  ...['--graceful-eviction-timeout', '2m'],
];

/** The agents' heartbeat: renewed every second (lease 4s × 0.25), status every second. */
export const failoverAgentArgs = [
  ...['--cluster-status-update-frequency', '1s'],
  ...['--cluster-lease-duration', '4s'],
  ...['--cluster-lease-renew-interval-fraction', '0.25'],
];

export const clusterNames = ['member1', 'member2', 'member3'];

/** The fleet: three clusters, the taint policy, and the Divided Deployment `web` over all three. */
export function failoverFleet(
  namespace: string,
  extra: Record<string, string> = {},
  app = 'web',
): Record<string, string> {
  return {
    // A ClusterTaintPolicy may add a NoExecute taint only when the FleetConfig allows it.
    'fleet.yaml': `apiVersion: gitfleet.io/v1alpha1
kind: FleetConfig
metadata: {name: fleet}
spec: {allowNoExecuteTaintPolicy: true}
`,
    'clusters.yaml': clusterNames.map(clusterDoc).join('---\n'),
    'taint-policy.yaml': noExecuteTaintPolicyDoc(),
    'apps/namespace.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${namespace}}\n`,
    [`apps/${app}.yaml`]: deployment(namespace, app, 6),
    [`apps/${app}-policy.yaml`]: `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${app}, namespace: ${namespace}}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: ${app}}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2, member3]}
    clusterTolerations:
      - {key: cluster.karmada.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 2}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 1}
          - {targetCluster: {clusterNames: [member2]}, weight: 1}
          - {targetCluster: {clusterNames: [member3]}, weight: 1}
`,
    ...extra,
  };
}

export function deployment(namespace: string, name: string, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  replicas: ${replicas}
  progressDeadlineSeconds: 10
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: ${name}, image: registry.example.com/${name}:1.0}]
`;
}

/** The application of the second test: primary member1, backup member3, failing over Directly after 5 s. */
export function flakyFiles(namespace: string): Record<string, string> {
  return {
    'apps/flaky.yaml': deployment(namespace, 'flaky', 2),
    'apps/flaky-policy.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: flaky, namespace: ${namespace}}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: flaky}]
  placement:
    clusterAffinities:
      - {affinityName: primary, clusterNames: [member1]}
      - {affinityName: backup, clusterNames: [member3]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
  propagateDeps: true
  failover:
    application:
      decisionConditions: {tolerationSeconds: 5}
      purgeMode: Directly
`,
    // No node of member1 has this label: its Pods stay Pending, the Deployment never becomes available.
    'apps/flaky-override.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: flaky-unschedulable-on-member1, namespace: ${namespace}}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: flaky}]
  overrideRules:
    - targetCluster: {clusterNames: [member1]}
      overriders:
        plaintext:
          - {path: /spec/template/spec/nodeSelector, operator: add, value: {gitfleet.io/no-such-node: "true"}}
`,
  };
}

/** A fleet repository (not bare) and how to commit the whole of it. */
export async function fleetRepo(name: string): Promise<{
  repo: string;
  commit: (files: Record<string, string>, message: string) => Promise<void>;
}> {
  const repo = join(tempDir(name), 'fleet');
  mkdirSync(repo, { recursive: true });
  await git(repo, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  return {
    repo,
    commit: async (files, message) => {
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(join(repo, path, '..'), { recursive: true });
        writeFileSync(join(repo, path), content);
      }
      await git(repo, ['add', '-A']);
      await git(repo, ['commit', '-q', '-m', message]);
    },
  };
}

/** kubectl against the run's clusters (the env withTestClusters hands over), or undefined when the object is not there. */
export function kubectlOf(env: Record<string, string>) {
  const run = (context: string, args: readonly string[]): string =>
    execFileSync(
      join(env['GITFLEET_K8S_BIN']!, 'kubectl'),
      [
        '--kubeconfig',
        env['GITFLEET_TEST_KUBECONFIG']!,
        '--context',
        context,
        '--request-timeout=5s',
        ...args,
      ],
      { stdio: 'pipe' },
    ).toString('utf8');
  return {
    run,
    /** spec.replicas of a Deployment, or undefined when the cluster has none by that name. */
    replicas(context: string, namespace: string, name: string): number | undefined {
      try {
        const d = JSON.parse(run(context, ['get', 'deployment', name, '-n', namespace, '-o', 'json'])) as {
          spec: { replicas?: number };
        };
        return d.spec.replicas ?? 1;
      } catch (err) {
        if (/NotFound|not found/.test(String((err as { stderr?: Buffer }).stderr ?? err))) return undefined;
        throw err;
      }
    },
  };
}

/** The binding record's scheduled clusters (name → replicas) on the bindings branch. */
export async function scheduledClusters(
  repo: string,
  namespace: string,
  name: string,
): Promise<Map<string, number> | undefined> {
  const text = await git(repo, [
    'show',
    `refs/heads/gitfleet/bindings:${namespace}/Deployment.apps/${name}.yaml`,
  ]).catch(() => undefined);
  const view = text === undefined ? undefined : parseBindingView(text);
  return view && new Map(view.clusters.map((c) => [c.name, c.replicas]));
}

/** Every bindings-branch commit message, newest first. */
export async function bindingsLog(repo: string): Promise<string> {
  return git(repo, ['log', '--format=%B%x00', 'refs/heads/gitfleet/bindings']).catch(() => '');
}

/** Whether the bindings branch records member2 tainted unreachable:NoExecute (its record or a Gitfleet-Taint trailer). */
export async function tainted(repo: string, cluster: string): Promise<boolean> {
  const record = await git(repo, [
    'show',
    `refs/heads/gitfleet/bindings:.gitfleet/failover/clusters/${cluster}.yaml`,
  ]).catch(() => '');
  if (/cluster\.karmada\.io\/unreachable/.test(record) && /NoExecute/.test(record)) return true;
  return new RegExp(`^Gitfleet-Taint: .*${cluster}.*cluster\\.karmada\\.io/unreachable.*NoExecute`, 'm').test(
    await bindingsLog(repo),
  );
}
