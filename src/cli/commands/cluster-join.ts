// `gitfleet cluster join NAME`: one command to onboard a member cluster (docs/onboarding.md), as
// `flux bootstrap`, `karmadactl register` and `clusteradm join` give their users. It makes the
// agent's ed25519 signing key, proposes the Cluster registration with the public half as a
// commit on a review branch of the fleet repository (never on the source branch), and writes
// (-o DIR) or prints the kustomize overlay that installs the agent with its private key as a
// Secret and the hub's public keys as its --trusted-keys. The private key never goes into the
// fleet repository. Everything is checked before anything is written; a commit that fails takes
// the files just written with it.
//
// Its age key is made here too (docs/secrets.md): the recipient goes into the registration
// beside the signing key (gitfleet.io/age-recipient), the identity into the overlay's Secret
// gitfleet-agent-age-identity (--age-identity, deploy/agent-secrets).
import { clusterJoinSpec } from './cluster-join-spec.js';
import { rm } from 'node:fs/promises';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { dirname, join } from 'node:path';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';
import type { Io } from '../io.js';
import { clusterRegistrationText, parseLabelList } from '../../core/onboard/cluster-registration.js';
import { locationLabel } from '../../core/model/source-location.js';
import { formatLoadError, loadFleet } from '../../core/load/load-fleet.js';
import { overlayFiles } from '../../core/onboard/agent-overlay.js';
import { generateSshKey, type OpensshKeyPair } from '../../adapters/signing/generate-ssh-key.js';
import { readKeyFile } from '../../adapters/signing/load-signing-key.js';
import { trustedKeysOf } from '../../adapters/signing/load-trusted-keys.js';
import { parseOpensshPrivateKey } from '../../adapters/signing/ssh-keys.js';
import { readGitConfig } from '../../adapters/source/resolve-revision.js';
import {
  assertOutsideRepository,
  defaultKeyFile,
  deployRefs,
  joinReport,
  writeJoinOutput,
  type JoinOutput,
} from './cluster-join-output.js';
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

/** `gitfleet cluster join`: parses its command line and onboards the cluster. */
export const clusterJoinCommand = defineCommand({
  spec: clusterJoinSpec,
  run: ({ values, positionals }, io) => runClusterJoin({ ...values, name: positionals[0]! }, io),
});

type JoinValues = { name: string } & {
  [K in keyof typeof clusterJoinSpec.flags]?: string | undefined;
};

/** Proposes the registration, writes the key and the overlay, prints where they went; returns the exit code. */
export async function runClusterJoin(values: JoinValues, io: Io, env = process.env): Promise<number> {
  const plan = await planJoin(values, env);
  const { name, at, output } = plan;
  const keys = await joinKeys(name);
  const registration = registrationOf(plan, keys);
  const overlayDir = output.type === 'dir' ? output.dir : undefined;
  const kustomization = await writeJoinOutput(output, {
    overlay: {
      cluster: name,
      repoUrl: agentRepoOf(values['agent-repo'], at.gitdir),
      ...deployRefs(values.deploy, overlayDir),
    },
    privateKey: keys.signing.privateKey,
    ageIdentity: `# the age identity of gitfleet agent ${name}; its recipient: ${keys.age.recipient}\n${keys.age.identity}\n`,
    trustedKeys: plan.trustedKeys,
  });
  const fingerprint = parseOpensshPrivateKey(keys.signing.privateKey, 'the new key').publicKey.fingerprint;
  let commit: string;
  try {
    commit = await proposeChange(at, {
      branch: plan.branch,
      edits: [{ path: plan.file, text: registration }],
      author: plan.author,
      message: joinMessage(name, fingerprint),
    });
  } catch (error) {
    await removeOutput(output);
    throw error;
  }
  const labelText = Object.entries(plan.labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const { branch, sourceRef, repo, file, hubKeysFile, trustedKeys } = plan;
  const report = {
    cluster: name,
    output,
    branch,
    commit,
    sourceRef,
    repo,
    file,
    fingerprint,
    labels: labelText,
  };
  for (const line of joinReport({ ...report, hubKeys: hubKeysFile, kustomization, trustedKeys }))
    io.out(line);
  return exitCodes.ok;
}

type JoinPlan = Awaited<ReturnType<typeof planJoin>>;

/** Checks everything the join needs before anything is written: the flags, the fleet, the branch, the paths. */
async function planJoin(values: JoinValues, env: NodeJS.ProcessEnv) {
  const { name } = values;
  assertClusterName(name);
  const labels = parseLabelList(values.labels ?? '');
  if (!labels.ok) throw new UsageError(`--labels: ${labels.problem}`);
  const repo = values.repo ?? '.';
  const sourceRef = values['source-ref'] ?? 'main';
  const hubKeysFile = values['hub-keys']!;
  const trustedKeys = await readKeyFile(hubKeysFile);
  await trustedKeysOf([{ text: trustedKeys, source: hubKeysFile }]);
  const at = await readFleetAtSource(repo, sourceRef);
  const registered = at.fleet.clusters.find((c) => c.name === name);
  if (registered)
    throw new OnboardError(
      'ClusterExists',
      `cluster ${name}: registered already (${locationLabel(registered.source)})`,
    );
  const branch = reviewBranchOf(values.branch, `cluster-join/${name}`, sourceRef);
  await assertNewBranch(at, branch);
  const file = values.file ?? `clusters/${name}.yaml`;
  if (at.files.some((f) => f.path === file))
    throw new OnboardError(
      'RegistrationInvalid',
      `${file}: exists already in ${repo}@${sourceRef}; choose another --file`,
    );
  assertCleanPath(repo, at, file);
  const author = authorOf(values.author, env, at.gitdir, new Date());
  const output: JoinOutput =
    values.out !== undefined
      ? { type: 'dir', dir: values.out }
      : { type: 'print', keyFile: values['key-file'] ?? defaultKeyFile(name, env) };
  assertOutsideRepository(output.type === 'dir' ? output.dir : output.keyFile, {
    dir: repo,
    gitdir: at.gitdir,
  });
  return {
    name,
    labels: labels.labels,
    repo,
    sourceRef,
    hubKeysFile,
    trustedKeys,
    at,
    branch,
    file,
    author,
    output,
  };
}

/** The registration's text, checked to load with the fleet it joins. */
function registrationOf(plan: JoinPlan, keys: Awaited<ReturnType<typeof joinKeys>>): string {
  const { name, at, file, sourceRef } = plan;
  const registration = clusterRegistrationText({
    name,
    labels: plan.labels,
    signingKey: keys.signing.publicLine,
    ageRecipient: keys.age.recipient,
  });
  const loaded = loadFleet([...at.files, { path: file, content: registration }], { sourceBranch: sourceRef });
  if (!loaded.ok)
    throw new OnboardError(
      'RegistrationInvalid',
      `cluster ${name}: the registration would not load:\n${loaded.errors.map(formatLoadError).join('\n')}`,
    );
  return registration;
}

/** The keys a new agent gets: its signing key and its age key (docs/secrets.md). */
async function joinKeys(
  cluster: string,
): Promise<{ signing: OpensshKeyPair; age: { identity: string; recipient: string } }> {
  const identity = await generateX25519Identity();
  return {
    signing: generateSshKey(`gitfleet-agent@${cluster}`),
    age: { identity, recipient: await identityToRecipient(identity) },
  };
}

function agentRepoOf(given: string | undefined, gitdir: string): string {
  if (given !== undefined) return given;
  const origin = readGitConfig({ commondir: gitdir }).get('remote.origin.url')?.at(-1);
  if (origin === undefined)
    throw new UsageError(
      '--agent-repo URL is required: the repository has no remote.origin.url to give the agent',
    );
  return origin;
}

function joinMessage(cluster: string, fingerprint: string): string {
  return [
    `Register cluster ${cluster}`,
    '',
    `Written by gitfleet cluster join. The agent of ${cluster} signs its status and heartbeat`,
    'commits with the key in the gitfleet.io/signing-key annotation; the hub accepts its reports',
    'only when they are signed with it. The private key is not in this repository.',
    '',
    `Gitfleet-Cluster-Join: ${cluster}`,
    `Gitfleet-Cluster-Key: ${fingerprint}`,
    '',
  ].join('\n');
}

async function removeOutput(output: JoinOutput): Promise<void> {
  if (output.type === 'print') {
    await rm(output.keyFile, { force: true });
    await rm(join(dirname(output.keyFile), overlayFiles.ageIdentity), { force: true });
    return;
  }
  for (const name of Object.values(overlayFiles)) await rm(join(output.dir, name), { force: true });
}
