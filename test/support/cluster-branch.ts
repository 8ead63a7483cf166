// Cluster branches as the hub writes them, for the agent's tests: a bare repository, and the
// branch's next commit made with gitfleet's own git writers (hub layout, canonical YAML,
// gitfleet's managed label). The unit tests on the fake cluster and the tests on real API
// servers read the same branches.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTreeFromScratch } from '../../src/adapters/git/build-tree-from-scratch.js';
import { toGitObject } from '../../src/adapters/git/hash-object.js';
import { makeCommit } from '../../src/adapters/git/make-commit.js';
import { signCommit, type CommitSigner } from '../../src/adapters/signing/commit-signer.js';
import { readRef } from '../../src/adapters/git/read-ref.js';
import { updateRefs } from '../../src/adapters/git/update-ref.js';
import { writeObjects } from '../../src/adapters/git/write-objects.js';
import { objectPath } from '../../src/core/format/object-path.js';
import { emitYaml } from '../../src/core/format/emit-yaml.js';
import { managedLabel } from '../../src/core/model/gitfleet-keys.js';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import type { ObjectRef } from '../../src/core/model/object-ref.js';
import { clusterBranchRef } from '../../src/loops/agent/agent-repo.js';

/** The branch prefix the agent tests use. */
export const prefix = 'gitfleet/';

/** A bare repository in a temporary directory, removed by `dispose`. */
export function makeBareRepo(): { dir: string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-agent-'));
  execFileSync('git', ['init', '-q', '--bare', dir]);
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Commits the objects as the cluster branch's next commit (hub layout, canonical YAML, gitfleet's managed label); returns its id. */
export async function commitClusterBranch(
  gitdir: string,
  cluster: string,
  objects: readonly KubeObject[],
  message = 'render: test\n',
  extraFiles: Record<string, string> = {},
  author = { name: 'hub', email: 'hub@test.invalid' },
  signer?: CommitSigner,
): Promise<string> {
  const blobs = [];
  const files = new Map<string, string>();
  const texts: [string, string][] = objects.map((o) => [objectPath(refOf(o)), emitYaml(decorate(o))]);
  for (const [path, text] of [...texts, ...Object.entries(extraFiles)]) {
    const blob = toGitObject('blob', Buffer.from(text, 'utf8'));
    blobs.push(blob);
    files.set(path, blob.oid);
  }
  const tree = buildTreeFromScratch(files);
  const ref = clusterBranchRef(prefix, cluster);
  const head = await readRef(gitdir, ref);
  const signature = { ...author, time: 1_700_000_000, tzOffsetMinutes: 0 };
  const commit = await signCommit(
    makeCommit({ tree: tree.root, parents: head ? [head] : [], author: signature, message }),
    signer,
  );
  await writeObjects({ gitdir, objects: [...blobs, ...tree.newObjects, commit], fsync: false });
  await updateRefs({ gitdir, updates: [{ ref, newOid: commit.oid, expectedOld: head }], fsync: false });
  return commit.oid;
}

/**
 * Commits on the bindings branch what a hub pass records of one cluster: the status head it read
 * (Gitfleet-Status-Commit), the cluster-branch head after it (Gitfleet-Cluster-Commit) and, when
 * given, its monitor's judgement (Gitfleet-Cluster-Judged); returns the commit's id.
 */
export async function commitBindings(
  gitdir: string,
  record: { cluster: string; status?: string | null; clusterCommit?: string | null; judged?: string },
): Promise<string> {
  const ref = `refs/heads/${prefix}bindings`;
  const head = await readRef(gitdir, ref);
  const tree = buildTreeFromScratch(new Map());
  const lines = [
    ...(record.status ? [`Gitfleet-Status-Commit: ${record.cluster}=${record.status}`] : []),
    ...(record.clusterCommit ? [`Gitfleet-Cluster-Commit: ${record.cluster}=${record.clusterCommit}`] : []),
    ...(record.judged ? [`Gitfleet-Cluster-Judged: ${record.cluster}=${record.judged}`] : []),
  ];
  const signature = { name: 'hub', email: 'hub@test.invalid', time: 1_700_000_000, tzOffsetMinutes: 0 };
  const commit = makeCommit({
    tree: tree.root,
    parents: head ? [head] : [],
    author: signature,
    message: `render: test\n\n${lines.join('\n')}\n`,
  });
  await writeObjects({ gitdir, objects: [...tree.newObjects, commit], fsync: false });
  await updateRefs({ gitdir, updates: [{ ref, newOid: commit.oid, expectedOld: head }], fsync: false });
  return commit.oid;
}

function decorate(o: KubeObject): KubeObject {
  return { ...o, metadata: { ...o.metadata, labels: { ...o.metadata.labels, [managedLabel]: 'true' } } };
}

/** Returns an object's identity. */
export function refOf(o: KubeObject): ObjectRef {
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    namespace: o.metadata.namespace ?? '',
    name: o.metadata.name,
  };
}
