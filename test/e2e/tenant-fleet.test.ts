// Tenants end to end on a test cluster, as a user runs them (docs/tenants.md): `gitfleet hub` and
// `gitfleet agent` as long-running processes over a fleet with a Tenant whose objects the agent
// applies as the tenant's ServiceAccount (deploy/tenant-impersonation in its namespace). The
// tenant's ConfigMap reaches the cluster; its Role, which gitfleet's rules allow but the member
// cluster's RBAC for that ServiceAccount does not (`edit` grants no RBAC), is refused by the
// member cluster (the access review the agent asks as the tenant) and reported on the object; a later platform ConfigMap the tenant's policy would
// claim is refused by the hub (TenantRefused) and never reaches the cluster.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseStatusBranch } from '../../src/core/status/status-branch.js';
import { readStatusFiles } from '../../src/loops/agent/write-status-branch.js';
import { repoRoot } from '../clusters/harness/ensure-binaries.js';
import { fleetSteps, startFleet } from '../support/running-fleet.js';
import { commitChange, fleetRepoWith, git, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { deleteNamespaceEverywhere, kubectl } from '../kube/agent-fixture.js';
import { eventually, uniqueName } from '../kube/test-clusters.js';

const ns = uniqueName('tenant');
after(() => {
  deleteNamespaceEverywhere(ns, ['member1']);
  removeFleetRepos();
});

const policy = (kinds: string) =>
  `apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: team-a, namespace: ${ns}}\nspec:\n  resourceSelectors: [${kinds}]\n  placement: {clusterAffinity: {clusterNames: [member1]}}\n`;

const files: Record<string, string> = {
  'platform/member1.yaml':
    'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: member1}\nspec: {syncMode: Pull}\n',
  'platform/tenants.yaml': `apiVersion: gitfleet.io/v1alpha1\nkind: Tenant\nmetadata: {name: team-a}\nspec:\n  paths: [apps/a/]\n  namespaces: [${ns}]\n  clusters: {names: [member1]}\n  impersonate: {serviceAccount: ${ns}/gitfleet-tenant}\n`,
  'apps/a/app.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: ${ns}}\ndata: {level: "1"}\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: reader, namespace: ${ns}}\nrules: [{apiGroups: [''], resources: [configmaps], verbs: [get]}]\n`,
  'apps/a/policy.yaml': policy(
    '{apiVersion: v1, kind: ConfigMap}, {apiVersion: rbac.authorization.k8s.io/v1, kind: Role}',
  ),
};

test(
  'a tenant fleet: the member cluster refuses what the tenant’s ServiceAccount may not write, the hub what its Tenant does not allow',
  { timeout: 300_000 },
  async (t) => {
    kubectl(['create', 'namespace', ns]);
    kubectl(['apply', '-n', ns, '-k', join(repoRoot(), 'deploy/tenant-impersonation')]);
    const repo = fleetRepoWith(files, { bare: false });
    const fleet = startFleet(repo.path, ['member1'], process.env['GITFLEET_TEST_KUBECONFIG']!);
    t.after(() => fleet.stop());
    const step = fleetSteps(t, fleet, 80);
    const report = async () =>
      parseStatusBranch(await readStatusFiles(repo.gitdir, 'refs/heads/gitfleet/status/member1'));

    await step(
      'the ConfigMap is applied as the tenant; its Role is refused by the member cluster',
      async () => {
        const refused = await eventually('the Role refused in the status branch', async () =>
          (await report())?.objects.find((o) => o.ref.name === 'reader' && o.message !== undefined),
        );
        assert.equal(refused.applied, false);
        assert.match(
          refused.message ?? '',
          // The member cluster's answer to the access review the agent asks as the tenant.
          new RegExp(
            `forbidden: system:serviceaccount:${ns}:gitfleet-tenant, whom the agent applies it as, may not create, patch roles.rbac.authorization.k8s.io in namespace ${ns}`,
          ),
        );
        assert.equal(
          kubectl(['get', 'configmap', 'settings', '-n', ns, '-o', 'jsonpath={.data.level}']),
          '1',
        );
        assert.equal(
          kubectl([
            'get',
            'configmap',
            'settings',
            '-n',
            ns,
            '-o',
            "jsonpath={.metadata.annotations['gitfleet\\.io/apply-as']}",
          ]),
          `system:serviceaccount:${ns}:gitfleet-tenant`,
        );
        assert.equal(kubectl(['get', 'role', 'reader', '-n', ns, '--ignore-not-found', '-o', 'name']), '');
      },
    );

    await step(
      'a platform ConfigMap the tenant’s policy claims is refused by the hub, and never reaches the cluster',
      async () => {
        commitChange(repo, 'a platform ConfigMap in the tenant namespace', (work) =>
          writeFileSync(
            join(work, 'platform/other.yaml'),
            `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: platform-settings, namespace: ${ns}}\ndata: {level: "9"}\n`,
          ),
        );
        await eventually('the hub names the refusal', async () =>
          fleet
            .output()
            .includes(`ConfigMap/${ns}/platform-settings @member1: refused by Tenant/team-a (rule policies)`)
            ? true
            : undefined,
        );
        assert.equal(
          kubectl(['get', 'configmap', 'platform-settings', '-n', ns, '--ignore-not-found', '-o', 'name']),
          '',
        );
        assert.equal(
          git(repo, ['ls-tree', '-r', '--name-only', 'gitfleet/clusters/member1']).includes(
            'platform-settings',
          ),
          false,
        );
        assert.equal(
          kubectl(['get', 'configmap', 'settings', '-n', ns, '-o', 'jsonpath={.data.level}']),
          '1',
        );
      },
    );
  },
);
