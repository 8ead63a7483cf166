// FederatedResourceQuota status (docs/federated-resource-quota.md#status): the hub records, per
// quota, the overall limits, what the placed templates use of them and each statically
// assigned cluster's ResourceQuota as its agent reported it, in a record of its own on the
// bindings branch; `gitfleet status` shows it in text and JSON. The expected usage is summed here
// from the Deployments the hub wrote to the cluster branches, not from the quota code.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { parseQuantity } from '../../src/core/model/parse-quantity.js';
import { statusBranchFiles } from '../../src/core/status/status-branch.js';
import { runCli } from './run-cli.js';
import {
  branchFiles,
  commitChange,
  commitStatusBranch,
  exampleFleetRepo,
  git,
  removeFleetRepos,
} from '../loops/hub/hub-fixture.js';

after(removeFleetRepos);

const quotaWithAssignment = `apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata:
  name: shop-quota
  namespace: shop
spec:
  overall:
    cpu: "20"
    memory: 40Gi
  staticAssignments:
    - clusterName: aws-eu-prod
      hard:
        cpu: "8"
        memory: 16Gi
`;

/**
 * What the shop Deployments placed request in total, in nano-units: the replicas the bindings
 * records schedule on each cluster × one replica's request, as a cluster branch renders the pod
 * template (an HPA's target is rendered without replicas, so the records count them).
 */
function placedRequests(repo: ReturnType<typeof exampleFleetRepo>, resource: string): bigint {
  const rendered = new Map<string, string>();
  for (const ref of git(repo, ['for-each-ref', '--format=%(refname)', 'refs/heads/gitfleet/clusters/']).split(
    '\n',
  ))
    if (ref) for (const [path, text] of branchFiles(repo, ref)) rendered.set(path, text);
  let total = 0n;
  for (const [path, text] of branchFiles(repo, 'refs/heads/gitfleet/bindings')) {
    if (!path.startsWith('shop/Deployment.apps/')) continue;
    const record = yaml.load(text) as { spec: { clusters: { replicas: number }[] } };
    const replicas = record.spec.clusters.reduce((sum, c) => sum + c.replicas, 0);
    const doc = yaml.load(rendered.get(path)!) as {
      spec: { template: { spec: { containers: { resources?: { requests?: Record<string, string> } }[] } } };
    };
    const perReplica = doc.spec.template.spec.containers.reduce(
      (sum, c) => sum + (parseQuantity(c.resources?.requests?.[resource] ?? '0') ?? 0n),
      0n,
    );
    total += perReplica * BigInt(replicas);
  }
  return total;
}

test('status shows each FederatedResourceQuota: overall, what the placements use, and each assigned cluster as reported', async () => {
  const repo = exampleFleetRepo({ bare: true });
  commitChange(repo, 'a ResourceQuota for aws-eu-prod', (work) =>
    writeFileSync(join(work, 'platform/quotas.yaml'), quotaWithAssignment),
  );
  assert.equal((await runCli(['hub', '--repo', repo.path, '--once'])).code, 0);
  // The agent of aws-eu-prod reports its ResourceQuota applied, with the status the API server gives it.
  const applied = git(repo, ['rev-parse', 'refs/heads/gitfleet/clusters/aws-eu-prod']).trim();
  await commitStatusBranch(
    repo,
    'aws-eu-prod',
    statusBranchFiles({
      cluster: 'aws-eu-prod',
      appliedCommit: applied,
      clusterStatus: { conditions: [{ type: 'Ready', status: 'True' }] },
      objects: [
        {
          ref: { apiVersion: 'v1', kind: 'ResourceQuota', namespace: 'shop', name: 'shop-quota' },
          applied: true,
          health: 'Healthy',
          status: { hard: { cpu: '8', memory: '16Gi' }, used: { cpu: '1250m', memory: '1280Mi' } },
        },
      ],
    }),
  );
  assert.equal((await runCli(['hub', '--repo', repo.path, '--once'])).code, 0);
  const record = git(repo, ['show', 'refs/heads/gitfleet/bindings:.gitfleet/quotas/shop/shop-quota.yaml']);
  assert.match(record, /kind: FederatedResourceQuota/);

  const json = await runCli(['status', '--repo', repo.path, '--output', 'json']);
  assert.equal(json.code, 0, json.stderr);
  const [quota] = (JSON.parse(json.stdout) as { quotas: Record<string, any>[] }).quotas; // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.equal(`${quota!.namespace}/${quota!.name}`, 'shop/shop-quota');
  assert.deepEqual(quota!.overall, { cpu: '20', memory: '40Gi' });
  for (const resource of ['cpu', 'memory']) {
    const expected = placedRequests(repo, resource);
    assert.ok(expected > 0n, `the shop Deployments request ${resource}`);
    assert.equal(parseQuantity(quota!.overallUsed[resource]), expected, resource);
  }
  assert.deepEqual(quota!.aggregatedStatus, [
    {
      clusterName: 'aws-eu-prod',
      hard: { cpu: '8', memory: '16Gi' },
      used: { cpu: '1250m', memory: '1280Mi' },
    },
  ]);

  const text = await runCli(['status', '--repo', repo.path]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^FEDERATED QUOTA\s+RESOURCE\s+USED\s+OVERALL/m);
  assert.match(
    text.stdout,
    new RegExp(`^shop/shop-quota\\s+cpu\\s+${quota!.overallUsed.cpu}\\s+20\\s+aws-eu-prod 1250m/8$`, 'm'),
  );
});

test('a fleet without FederatedResourceQuotas has no quotas in its status', async () => {
  const repo = exampleFleetRepo({ bare: true });
  commitChange(repo, 'no quota', (work) => rmSync(join(work, 'platform/quotas.yaml')));
  assert.equal((await runCli(['hub', '--repo', repo.path, '--once'])).code, 0);
  const json = await runCli(['status', '--repo', repo.path, '--output', 'json']);
  assert.equal((JSON.parse(json.stdout) as { quotas?: unknown }).quotas, undefined);
  assert.doesNotMatch((await runCli(['status', '--repo', repo.path])).stdout, /FEDERATED QUOTA/);
});
