// Where `gitfleet cluster join` puts what must not go into the fleet repository: the agent's
// private key and the overlay that installs it (docs/onboarding.md). With -o DIR, the overlay
// and the key go into DIR (new or empty; the key 0600, listed in DIR/.gitignore). Without it,
// the key goes to the key file (default under $XDG_CONFIG_HOME/gitfleet/clusters/<cluster>/,
// 0600, never overwritten) and the overlay is printed. Neither may be inside the fleet
// repository's work tree or git directory.
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { mkdir } from 'node:fs/promises';
import {
  agentOverlayGitignore,
  agentOverlayKustomization,
  overlayFiles,
  type AgentOverlay,
} from '../../core/onboard/agent-overlay.js';
import { createFile, writeNewFiles } from '../../adapters/output/write-new-files.js';
import { OnboardError } from './onboard-error.js';

/** Where the key and the overlay go. */
export type JoinOutput = { type: 'dir'; dir: string } | { type: 'print'; keyFile: string };

/** Returns the default key file of a cluster when there is no -o: $XDG_CONFIG_HOME/gitfleet/clusters/<cluster>/signing-key. */
export function defaultKeyFile(cluster: string, env: Readonly<Record<string, string | undefined>>): string {
  const config = env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config');
  return join(config, 'gitfleet', 'clusters', cluster, overlayFiles.signingKey);
}

/** Throws KeyInsideFleetRepository when `path` is inside the fleet repository (its work tree or git directory). */
export function assertOutsideRepository(path: string, repo: { dir: string; gitdir: string }): void {
  for (const root of [repo.dir, repo.gitdir]) {
    const rel = relative(resolve(root), resolve(path));
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
      throw new OnboardError(
        'KeyInsideFleetRepository',
        `${path}: inside the fleet repository ${root}; the agent's private key never goes into it (choose a directory outside)`,
      );
    }
  }
}

/** The overlay's deploy folder without --deploy: a checkout of gitfleet beside the overlay (docs/production.md's overlays). */
export const defaultDeploy = '../gitfleet/deploy';

/** Returns the kustomization's references to deploy/agent and deploy/agent-signing, from --deploy (a local path made relative to the overlay, or a remote URL kept). */
export function deployRefs(
  given: string | undefined,
  overlayDir: string | undefined,
): Pick<AgentOverlay, 'base' | 'component' | 'secretsComponent'> {
  const deploy = given ?? defaultDeploy;
  const remote = /^[a-z][a-z0-9+.-]*:\/\//i.test(deploy) || /^[\w.-]+\.[a-z]{2,}\//i.test(deploy);
  if (remote) {
    const [path, query] = deploy.split('?', 2) as [string, string | undefined];
    const suffix = query === undefined ? '' : `?${query}`;
    const at = path.replace(/\/+$/, '');
    return {
      base: `${at}/agent${suffix}`,
      component: `${at}/agent-signing${suffix}`,
      secretsComponent: `${at}/agent-secrets${suffix}`,
    };
  }
  const at =
    overlayDir === undefined || given === undefined
      ? deploy
      : relative(resolve(overlayDir), resolve(deploy)) || '.';
  return {
    base: join(at, 'agent'),
    component: join(at, 'agent-signing'),
    secretsComponent: join(at, 'agent-secrets'),
  };
}

/** Writes the key (and with -o the overlay); returns the overlay's kustomization text. */
export async function writeJoinOutput(
  output: JoinOutput,
  input: { overlay: AgentOverlay; privateKey: string; ageIdentity: string; trustedKeys: string },
): Promise<string> {
  const kustomization = agentOverlayKustomization(input.overlay);
  if (output.type === 'dir') {
    await writeNewFiles(output.dir, [
      { name: overlayFiles.kustomization, text: kustomization, mode: 0o644 },
      { name: overlayFiles.trustedKeys, text: input.trustedKeys, mode: 0o644 },
      { name: overlayFiles.gitignore, text: agentOverlayGitignore(), mode: 0o644 },
      { name: overlayFiles.signingKey, text: input.privateKey, mode: 0o600 },
      { name: overlayFiles.ageIdentity, text: input.ageIdentity, mode: 0o600 },
    ]);
  } else {
    await mkdir(dirname(output.keyFile), { recursive: true, mode: 0o700 });
    await createFile(output.keyFile, input.privateKey, 0o600);
    await createFile(join(dirname(output.keyFile), overlayFiles.ageIdentity), input.ageIdentity, 0o600);
  }
  return kustomization;
}

/** Returns the lines that say where everything went and what to do next. */
export function joinReport(input: {
  cluster: string;
  output: JoinOutput;
  branch: string;
  commit: string;
  sourceRef: string;
  repo: string;
  file: string;
  fingerprint: string;
  labels: string;
  hubKeys: string;
  kustomization: string;
  trustedKeys: string;
}): string[] {
  const short = input.branch.replace(/^refs\/heads\//, '');
  const lines = [
    `cluster ${input.cluster}: registration committed on branch ${short} (${input.commit.slice(0, 12)}), on top of ${input.sourceRef}; ${input.sourceRef} is unchanged`,
    `  ${input.file}: Cluster ${input.cluster}${input.labels ? `, labels ${input.labels}` : ''}, agent signing key ${input.fingerprint} (public half only)`,
  ];
  if (input.output.type === 'dir') {
    const at = (name: string) => join(input.output.type === 'dir' ? input.output.dir : '', name);
    lines.push(
      `agent overlay written to ${input.output.dir}:`,
      `  ${at(overlayFiles.kustomization)}  deploy/agent with deploy/agent-signing, cluster=${input.cluster}`,
      `  ${at(overlayFiles.trustedKeys)}  the hub's public keys (--trusted-keys), from ${input.hubKeys}`,
      `  ${at(overlayFiles.signingKey)}  the agent's PRIVATE key, mode 0600, listed in ${at(overlayFiles.gitignore)}: never commit it`,
      `  ${at(overlayFiles.ageIdentity)}  the agent's age identity (--age-identity, docs/secrets.md), mode 0600, listed there too: never commit it`,
    );
  } else {
    lines.push(
      `the agent's PRIVATE key went to ${input.output.keyFile} (mode 0600): copy it beside the kustomization below as ${overlayFiles.signingKey}, never into a repository`,
      `its age identity went to ${join(dirname(input.output.keyFile), overlayFiles.ageIdentity)} (mode 0600): copy it beside the kustomization as ${overlayFiles.ageIdentity}`,
      '',
      `# ${overlayFiles.kustomization}`,
      input.kustomization.trimEnd(),
      '',
      `# ${overlayFiles.trustedKeys} (from ${input.hubKeys})`,
      input.trustedKeys.trimEnd(),
      '',
    );
  }
  const apply = input.output.type === 'dir' ? input.output.dir : 'the overlay directory';
  lines.push(
    'next steps:',
    `  1. git -C ${input.repo} push origin ${short}, and open a pull request into ${input.sourceRef}; once it is merged the hub renders gitfleet/clusters/${input.cluster}`,
    `  2. put the agent's Git token in ${input.output.type === 'dir' ? join(input.output.dir, overlayFiles.gitToken) : overlayFiles.gitToken} (it may read the fleet repository and write gitfleet/status/${input.cluster} and gitfleet/heartbeat/${input.cluster} only; never commit it)`,
    `  3. kubectl apply -k ${apply}   (in cluster ${input.cluster})`,
    `  4. gitfleet status shows ${input.cluster} once its agent reports; to undo: gitfleet cluster leave ${input.cluster}`,
  );
  return lines;
}
