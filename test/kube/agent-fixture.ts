// What the agent's kube tests share: a real git repository whose cluster branch a test writes
// (with gitfleet's own git writers, as the hub does), an agent for a cluster name unique to the
// test (so its inventory, ownership marker and status branch are its own on the shared test
// clusters), and kubectl for what a person does by hand.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildTreeFromScratch } from '../../src/adapters/git/build-tree-from-scratch.js';
import { makeCommit } from '../../src/adapters/git/make-commit.js';
import { readRef } from '../../src/adapters/git/read-ref.js';
import { updateRefs } from '../../src/adapters/git/update-ref.js';
import { writeObjects } from '../../src/adapters/git/write-objects.js';
import { KubeClient } from '../../src/adapters/kube/kube-client.js';
import { kubeClusterApi } from '../../src/loops/agent/kube-cluster-api.js';
import { clusterLabel, inventoryName, inventoryNamespace } from '../../src/core/apply-plan/agent-keys.js';
import { defaultHubIdentity } from '../../src/core/apply-plan/hub-identity.js';
import { allowDeletionsTrailer } from '../../src/core/publish/commit-trailers.js';
import { renderCommitMessage } from '../../src/core/publish/commit-message.js';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { createAgentMemory, type AgentMemory } from '../../src/loops/agent/agent-memory.js';
import { localAgentRepo, statusBranchRef, type AgentRepo } from '../../src/loops/agent/agent-repo.js';
import {
  runAgentPass,
  type AgentPassOptions,
  type AgentPassResult,
} from '../../src/loops/agent/run-agent-pass.js';
import { readStatusFiles } from '../../src/loops/agent/write-status-branch.js';
import { parseStatusBranch, type AgentReport } from '../../src/core/status/status-branch.js';
import { systemClock } from '../../src/loops/runtime/clock.js';
import { testKubeConfig, uniqueName } from './test-clusters.js';
import { commitClusterBranch, makeBareRepo, prefix, refOf } from '../support/cluster-branch.js';

// Shared with the agent's unit tests on the fake cluster (test/support).
export { commitClusterBranch, makeBareRepo, prefix, refOf } from '../support/cluster-branch.js';
export { aConfigMap, aDeployment, aNamespace, aWidget } from '../support/kube-objects.js';

/**
 * Commits as the hub does when a source commit allows deletions on the cluster: a source commit
 * on main carrying the Gitfleet-Allow-Deletions trailer, the bindings branch recording it, and
 * the cluster branch's commit by the hub's identity passing the trailer on. Returns its id.
 */
export async function commitAsHub(
  gitdir: string,
  cluster: string,
  objects: readonly KubeObject[],
  subject: string,
): Promise<string> {
  const author = { ...defaultHubIdentity, time: 1_700_000_000, tzOffsetMinutes: 0 };
  const person = { name: 'Ada', email: 'ada@example.com', time: 1_700_000_000, tzOffsetMinutes: 0 };
  const empty = buildTreeFromScratch(new Map());
  const mainHead = await readRef(gitdir, 'refs/heads/main');
  const source = makeCommit({
    tree: empty.root,
    parents: mainHead ? [mainHead] : [],
    author: person,
    message: `${subject}\n\n${allowDeletionsTrailer}: ${cluster}\n`,
  });
  const bindingsHead = await readRef(gitdir, `refs/heads/${prefix}bindings`);
  const bindings = makeCommit({
    tree: empty.root,
    parents: bindingsHead ? [bindingsHead] : [],
    author,
    message: renderCommitMessage({
      sourceCommit: source.oid,
      sourceRef: 'refs/heads/main',
      sourceSubject: subject,
      changes: [],
    }),
  });
  await writeObjects({ gitdir, objects: [...empty.newObjects, source, bindings], fsync: false });
  await updateRefs({
    gitdir,
    updates: [
      { ref: 'refs/heads/main', newOid: source.oid, expectedOld: mainHead },
      { ref: `refs/heads/${prefix}bindings`, newOid: bindings.oid, expectedOld: bindingsHead },
    ],
    fsync: false,
  });
  const message = renderCommitMessage({
    sourceCommit: source.oid,
    sourceRef: 'refs/heads/main',
    sourceSubject: subject,
    changes: [],
    allowDeletionsOn: cluster,
  });
  return commitClusterBranch(gitdir, cluster, objects, message, {}, defaultHubIdentity);
}

/** An agent for one test: its own cluster name, repository, client and memory. */
export interface TestAgent {
  cluster: string;
  repo: AgentRepo;
  client: KubeClient;
  memory: AgentMemory;
  pass(overrides?: Partial<AgentPassOptions>): Promise<AgentPassResult>;
  report(): Promise<AgentReport | undefined>;
  statusHead(): Promise<string | null>;
  dispose(): Promise<void>;
}

/** Returns an agent of a fresh cluster name on the test cluster `context`, with a bare repository. */
export function testAgent(
  opts: { context?: string; repo?: AgentRepo; name?: string } = {},
): TestAgent & { gitdir: string } {
  const cluster = opts.name ?? uniqueName('t');
  const bare = opts.repo ? undefined : makeBareRepo();
  const repo = opts.repo ?? localAgentRepo(bare!.dir);
  const client = KubeClient.fromKubeConfig(testKubeConfig(opts.context));
  const memory = createAgentMemory();
  const base: AgentPassOptions = {
    repo,
    client: kubeClusterApi(client),
    cluster,
    branchPrefix: prefix,
    memory,
    clock: systemClock(),
    identity: { name: 'gitfleet agent', email: 'agent@test.invalid' },
    guard: { maxDeleteFraction: 0.5, minObjects: 10 },
    allowDeletions: false,
    concurrency: 8,
    crdTimeoutMs: 60_000,
    factsMaxAgeMs: 0,
  };
  return {
    cluster,
    gitdir: repo.gitdir,
    repo,
    client,
    memory,
    pass: (overrides = {}) => runAgentPass({ ...base, ...overrides }),
    report: async () =>
      parseStatusBranch(await readStatusFiles(repo.gitdir, statusBranchRef(prefix, cluster))),
    statusHead: () => readRef(repo.gitdir, statusBranchRef(prefix, cluster)),
    dispose: async () => {
      await deleteOwned(client, cluster);
      client.close();
      bare?.dispose();
    },
  };
}

/** Deletes what the agent of `cluster` left on the test cluster: its inventory and its labelled ConfigMaps and Deployments. */
async function deleteOwned(client: KubeClient, cluster: string): Promise<void> {
  await client.delete({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    namespace: inventoryNamespace,
    name: inventoryName(cluster),
  });
  for (const kind of [
    { apiVersion: 'v1', kind: 'Namespace' },
    { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' },
  ]) {
    const { items } = await client
      .list(kind, { labelSelector: `${clusterLabel}=${cluster}` })
      .catch(() => ({ items: [] }));
    for (const item of items) await client.delete(refOf(item));
  }
}

/** Runs kubectl on a test cluster, as a person would; returns stdout. */
export function kubectl(args: readonly string[], opts: { context?: string; input?: string } = {}): string {
  const bin = process.env['GITFLEET_K8S_BIN'];
  if (!bin) throw new Error('GITFLEET_K8S_BIN is not set');
  const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
  return execFileSync(
    join(bin, 'kubectl'),
    ['--kubeconfig', kubeconfig, '--context', opts.context ?? 'member1', ...args],
    {
      input: opts.input ?? '',
      stdio: 'pipe',
    },
  ).toString('utf8');
}

/** Deletes a namespace from each cluster without waiting, whether or not it is still there. */
export function deleteNamespaceEverywhere(
  ns: string,
  contexts: readonly string[] = ['member1', 'member2'],
): void {
  for (const context of contexts) {
    try {
      kubectl(['delete', 'namespace', ns, '--wait=false'], { context });
    } catch {
      // already gone
    }
  }
}

/** Returns a group name unique to a test. */
export function uniqueGroup(): string {
  return `${uniqueName('g')}.example.com`;
}
