// `gitfleet cluster leave NAME`: the reverse of `cluster join` (docs/onboarding.md). It proposes,
// as a commit on a review branch (never on the source branch), the removal of the cluster's
// registration, and with it the agent's public signing key: once merged, the hub writes the
// tombstone on the cluster's branch (its agent then applies and deletes nothing) and accepts no
// report signed with that key, so a leaked key of a cluster that left is worth nothing.
import { clusterLeaveSpec } from './cluster-leave-spec.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import type { Io } from '../io.js';
import { removeClusterDocument } from '../../core/onboard/remove-cluster-document.js';
import { clusterSigningKeyOf } from '../../core/model/cluster-signing-key.js';
import { loadFleet } from '../../core/load/load-fleet.js';
import { parseSshPublicKey } from '../../adapters/signing/ssh-keys.js';
import {
  assertCleanPath,
  assertClusterName,
  assertNewBranch,
  authorOf,
  proposeChange,
  readFleetAtSource,
  reviewBranchOf,
} from './cluster-proposal.js';
import { OnboardError } from './onboard-error.js';
import * as jsyaml from 'js-yaml';

/** `gitfleet cluster leave`: parses its command line and proposes the removal. */
export const clusterLeaveCommand = defineCommand({
  spec: clusterLeaveSpec,
  run: ({ values, positionals }, io) => runClusterLeave({ ...values, name: positionals[0]! }, io),
});

type LeaveValues = { name: string } & {
  [K in keyof typeof clusterLeaveSpec.flags]?: string | undefined;
};

/** Proposes the removal of the registration and prints what happens next; returns the exit code. */
export async function runClusterLeave(values: LeaveValues, io: Io, env = process.env): Promise<number> {
  const { name } = values;
  assertClusterName(name);
  const repo = values.repo ?? '.';
  const sourceRef = values['source-ref'] ?? 'main';
  const at = await readFleetAtSource(repo, sourceRef);
  const cluster = at.fleet.clusters.find((c) => c.name === name);
  if (!cluster) {
    const known = at.fleet.clusters.map((c) => c.name).join(', ') || 'none';
    throw new OnboardError(
      'ClusterNotFound',
      `cluster ${name}: not registered in ${repo}@${sourceRef} (registered: ${known})`,
    );
  }
  const branch = reviewBranchOf(values.branch, `cluster-leave/${name}`, sourceRef);
  await assertNewBranch(at, branch);
  const file = cluster.source.file;
  const text = at.files.find((f) => f.path === file)!.content;
  assertCleanPath(repo, at, file);
  const removed = removeClusterDocument(text, name);
  if (removed.type === 'notFound')
    throw new OnboardError(
      'ClusterNotFound',
      `${file}: holds cluster ${name} in a form gitfleet cannot cut out; remove it by hand`,
    );
  const files = at.files.filter((f) => f.path !== file);
  if (removed.type === 'text') files.push({ path: file, content: removed.text });
  const after = loadFleet(files, { sourceBranch: sourceRef });
  if (
    !after.ok ||
    after.fleet.clusters.some((c) => c.name === name) ||
    after.fleet.clusters.length !== at.fleet.clusters.length - 1
  )
    throw new OnboardError(
      'ClusterNotFound',
      `${file}: removing cluster ${name} would change more than it; remove it by hand`,
    );
  const key = keyOf(text, name);
  const commit = await proposeChange(at, {
    branch,
    edits: [{ path: file, text: removed.type === 'file' ? null : removed.text }],
    author: authorOf(values.author, env, at.gitdir, new Date()),
    message: leaveMessage(name, key),
  });
  const short = branch.replace(/^refs\/heads\//, '');
  for (const line of [
    `cluster ${name}: removal committed on branch ${short} (${commit.slice(0, 12)}), on top of ${sourceRef}; ${sourceRef} is unchanged`,
    `  ${file}: ${removed.type === 'file' ? 'removed (it held only this registration)' : `the Cluster document removed, the rest of the file kept`}`,
    key
      ? `  agent signing key ${key} revoked with it: once merged, the hub accepts no status, heartbeat or endpoint report signed with it`
      : `  the registration named no agent signing key (${name} joined without gitfleet cluster join)`,
    'next steps:',
    `  1. git -C ${repo} push origin ${short}, and open a pull request into ${sourceRef}; once it is merged the hub writes the tombstone on gitfleet/clusters/${name}: its agent applies and deletes nothing from then on`,
    `  2. in cluster ${name}: kubectl delete -k <the agent's overlay> (the objects it applied stay until you delete them)`,
    `  3. delete the agent's private key (the overlay's signing-key) and revoke its Git token`,
  ])
    io.out(line);
  return exitCodes.ok;
}

// The fingerprint of the key the registration names, when it names a readable one.
function keyOf(text: string, cluster: string): string | undefined {
  for (const doc of jsyaml.loadAll(text) as unknown[]) {
    const value = doc as { kind?: unknown; metadata?: { name?: unknown } } | null;
    if (value?.kind !== 'Cluster' || value.metadata?.name !== cluster) continue;
    const line = clusterSigningKeyOf(doc);
    const [type, base64] = line?.split(/\s+/) ?? [];
    if (type === undefined || base64 === undefined) return undefined;
    try {
      return parseSshPublicKey(type, base64).fingerprint;
    } catch {
      return `${type} key (unreadable)`;
    }
  }
  return undefined;
}

function leaveMessage(cluster: string, key: string | undefined): string {
  return [
    `Remove cluster ${cluster}`,
    '',
    `Written by gitfleet cluster leave. Once merged, the hub writes the tombstone on`,
    `gitfleet/clusters/${cluster} and accepts no report of ${cluster} any more${key ? ": its agent's" : '.'}`,
    ...(key ? ['signing key is revoked with the registration that named it.'] : []),
    '',
    `Gitfleet-Cluster-Leave: ${cluster}`,
    ...(key ? [`Gitfleet-Cluster-Key-Revoked: ${key}`] : []),
    '',
  ].join('\n');
}
