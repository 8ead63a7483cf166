// The agent with exactly the rights the shipped manifests give it, as a tenant agent runs: the
// ServiceAccount, Roles and bindings of deploy/agent with the namespace-scoped component
// (deploy/agent-namespaced) applied to a test cluster for one tenant namespace, a token for that
// ServiceAccount from the TokenRequest API (kubectl create token), and `gitfleet agent` started
// as a process with the in-cluster environment (KUBERNETES_SERVICE_HOST/PORT, the token and CA
// in GITFLEET_SERVICE_ACCOUNT_DIR) and no kubeconfig. What the RBAC does not allow (a ClusterRole,
// a ConfigMap in a namespace outside the list) is refused by name and never written; the rest,
// the tenant's own Namespace object included, is applied, and once the branch holds only what it may apply, the cluster converges.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { parseStatusBranch, type AgentReport } from '../../src/core/status/status-branch.js';
import { statusBranchRef } from '../../src/loops/agent/agent-repo.js';
import { readStatusFiles } from '../../src/loops/agent/write-status-branch.js';
import { repoRoot } from '../clusters/harness/ensure-binaries.js';
import { aConfigMap, commitClusterBranch, kubectl, makeBareRepo, prefix } from './agent-fixture.js';
import { eventually, inNamespace, testKubeConfig, uniqueName } from './test-clusters.js';

const root = repoRoot();
const cli = join(root, 'bin/gitfleet.js');

/** Returns the overlay a tenant admin writes: the agent base, the namespaced component, one tenant namespace. */
function tenantOverlay(dir: string, namespace: string, cluster: string): string {
  const overlay = join(dir, 'overlay');
  const tenant = join(overlay, 'tenants', namespace);
  mkdirSync(tenant, { recursive: true });
  const from = (at: string, path: string) => relative(at, join(root, 'deploy', path));
  writeFileSync(
    join(tenant, 'kustomization.yaml'),
    yaml.dump({ namespace, resources: [from(tenant, 'agent-namespaced/tenant')] }),
  );
  writeFileSync(
    join(overlay, 'kustomization.yaml'),
    yaml.dump({
      resources: [from(overlay, 'agent'), `tenants/${namespace}`],
      components: [from(overlay, 'agent-namespaced/component')],
      configMapGenerator: [
        {
          name: 'gitfleet-agent-config',
          namespace: 'gitfleet-system',
          behavior: 'merge',
          literals: [`cluster=${cluster}`],
        },
      ],
    }),
  );
  return overlay;
}

/** The RBAC part of the overlay: what the test applies (the agent runs here as a process, not as the Deployment). */
function rbacObjects(overlay: string): KubeObject[] {
  const all = yaml.loadAll(kubectl(['kustomize', overlay])) as KubeObject[];
  return all.filter((o) => !['Deployment', 'Secret', 'ConfigMap'].includes(o.kind));
}

function asYaml(objects: readonly KubeObject[]): string {
  return objects.map((o) => yaml.dump(o)).join('---\n');
}

/** Writes what a Pod's ServiceAccount volume holds: token, ca.crt, namespace. */
function serviceAccountDir(dir: string, token: string): string {
  const sa = join(dir, 'serviceaccount');
  mkdirSync(sa);
  const cluster = testKubeConfig().getCurrentCluster()!;
  writeFileSync(join(sa, 'token'), token);
  writeFileSync(join(sa, 'ca.crt'), Buffer.from(cluster.caData!, 'base64'));
  writeFileSync(join(sa, 'namespace'), 'gitfleet-system');
  return sa;
}

/** The agent's process with the in-cluster environment only; `kubeconfig` while in-cluster loading is not built. */
function startAgent(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [cli, 'agent', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  child.stdout!.on('data', (d: Buffer) => lines.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => lines.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => lines.join(''), exited };
}

test('a tenant agent with the shipped RBAC applies what it may, refuses the rest by name, and converges', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-rbac-'));
  const repo = makeBareRepo();
  const cluster = uniqueName('rbac');
  // One hook, in this order: the agent may be writing its status into the repository until it exits.
  let stopAgent: (() => Promise<unknown>) | undefined;
  t.after(async () => {
    await stopAgent?.();
    repo.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
  // The bases as shipped are accepted by a real API server (a server-side dry run needs the
  // namespace to exist; other agents' inventories live there too, so it stays). The namespaced
  // variant is applied for real below, with the test's own tenant namespace.
  kubectl(['apply', '-f', '-'], {
    input: kubectl(['create', 'namespace', 'gitfleet-system', '--dry-run=client', '-o', 'yaml']),
  });
  for (const base of ['hub', 'agent'])
    kubectl(['apply', '--dry-run=server', '-k', join(root, 'deploy', base)]);

  await inNamespace(testKubeConfig(), 'tenant', async (tenant) => {
    await inNamespace(testKubeConfig(), 'outside', async (outside) => {
      const rbac = rbacObjects(tenantOverlay(dir, tenant, cluster));
      assert.ok(
        !rbac.some((o) => o.kind.startsWith('Cluster')),
        'the namespaced variant has no cluster-wide rights',
      );
      kubectl(['apply', '-f', '-'], { input: asYaml(rbac) });
      t.after(() => {
        kubectl(['delete', '--ignore-not-found', '--wait=false', '-f', '-'], {
          input: asYaml(rbac.filter((o) => o.kind !== 'Namespace')),
        });
        kubectl([
          'delete',
          'configmap',
          '-n',
          'gitfleet-system',
          '--ignore-not-found',
          `gitfleet-inventory-${cluster}`,
        ]);
        // The agent loop's Lease, where the build holds one (the agent's own Role allows it).
        kubectl([
          'delete',
          'lease',
          '-n',
          'gitfleet-system',
          '--ignore-not-found',
          `gitfleet-agent-${cluster}`,
        ]);
      });
      const token = kubectl([
        'create',
        'token',
        'gitfleet-agent',
        '-n',
        'gitfleet-system',
        '--duration',
        '1h',
      ]).trim();
      const server = new URL(testKubeConfig().getCurrentCluster()!.server);
      const env: NodeJS.ProcessEnv = {
        PATH: process.env['PATH'],
        HOME: dir,
        KUBERNETES_SERVICE_HOST: server.hostname,
        KUBERNETES_SERVICE_PORT: server.port,
        GITFLEET_SERVICE_ACCOUNT_DIR: serviceAccountDir(dir, token),
      };
      const base = ['--repo', repo.dir, '--cluster', cluster];

      // A --once pass of an empty branch exits 0: it reached the cluster with in-cluster credentials.
      const probeCluster = `${cluster}-probe`;
      await commitClusterBranch(repo.dir, probeCluster, []);
      const probe = startAgent(['--repo', repo.dir, '--cluster', probeCluster, '--once'], env);
      assert.equal(await probe.exited, 0, `in-cluster credentials: ${probe.output()}`);

      const role = {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: uniqueName('gitfleet-rbac-test') },
        rules: [],
      };
      // Its own namespace, as the hub puts every namespace in use on the branch: made by the
      // cluster's admin, taken over, and covered by the tenant RoleBinding in it.
      const ownNamespace: KubeObject = {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: tenant, annotations: { 'work.karmada.io/conflict-resolution': 'overwrite' } },
      };
      await commitClusterBranch(repo.dir, cluster, [
        ownNamespace,
        aConfigMap(tenant, 'web', { a: '1' }),
        aConfigMap(outside, 'ledger', { a: '1' }),
        role,
      ]);
      const agent = startAgent([...base, '--interval', '2s'], env);
      stopAgent = () => {
        if (agent.child.exitCode === null) agent.child.kill('SIGTERM');
        return agent.exited;
      };
      const reportOf = async (): Promise<AgentReport | undefined> =>
        parseStatusBranch(await readStatusFiles(repo.dir, statusBranchRef(prefix, cluster)));

      const first = await withOutput(agent.output, () =>
        eventually('the first status report', async () =>
          (await reportOf())?.objects.length === 4 ? reportOf() : undefined,
        ),
      );
      const byName = new Map(first!.objects.map((o) => [o.ref.name, o]));
      assert.equal(byName.get('web')?.applied, true, agent.output());
      assert.equal(byName.get(tenant)?.applied, true, byName.get(tenant)?.message);
      assert.deepEqual(
        [byName.get('ledger')?.message, byName.get(role.metadata.name)?.message],
        [
          `forbidden: the agent's credentials may not get, list, watch, create, patch configmaps in namespace ${outside}`,
          "forbidden: the agent's credentials may not get, list, watch, create, patch clusterroles.rbac.authorization.k8s.io (cluster-scoped)",
        ],
      );
      assert.equal(kubectl(['get', 'configmap', '-n', tenant, 'web', '-o', 'jsonpath={.data.a}']), '1');
      // The refused ConfigMap was never written (a controller-manager puts kube-root-ca.crt in every namespace).
      assert.equal(
        kubectl(['get', 'configmap', '-n', outside, 'ledger', '--ignore-not-found', '-o', 'name']),
        '',
      );
      assert.equal(
        kubectl(['get', 'clusterrole', role.metadata.name, '--ignore-not-found', '-o', 'name']),
        '',
      );

      // The branch holds only what the agent may apply: it converges, the refused objects gone from the report.
      const head = await commitClusterBranch(repo.dir, cluster, [
        ownNamespace,
        aConfigMap(tenant, 'web', { a: '2' }),
      ]);
      const converged = await withOutput(agent.output, () =>
        eventually(`the head ${head} applied`, async () => {
          const report = await reportOf();
          return report?.appliedCommit === head ? report : undefined;
        }),
      );
      assert.deepEqual(
        converged.objects.map((o) => [o.ref.name, o.applied]),
        [
          [tenant, true],
          ['web', true],
        ],
      );
      assert.equal(kubectl(['get', 'configmap', '-n', tenant, 'web', '-o', 'jsonpath={.data.a}']), '2');
    });
  });
});

/** Returns what `fn` returns; when it throws, the error says what the agent printed. */
async function withOutput<T>(output: () => string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw new Error(`${(error as Error).message}; the agent printed:\n${output()}`, { cause: error });
  }
}
