// The kustomize overlay `gitfleet cluster join` gives a new member cluster (docs/onboarding.md):
// deploy/agent with the component deploy/agent-signing, the cluster's name and the fleet
// repository's URL merged into gitfleet-agent-config, the hub's public keys as the ConfigMap
// gitfleet-agent-trusted-keys (--trusted-keys) and the agent's private key as the Secret
// gitfleet-agent-signing-key (--signing-key), both made by kustomize's generators from files
// beside the kustomization, so the key is never in a manifest text and a new key rolls the Pod;
// the agent's Git token replaces deploy/agent's placeholder Secret from a file the person adds.

/** The file names of the overlay. */
export const overlayFiles = {
  kustomization: 'kustomization.yaml',
  /** The agent's private key: mode 0600, never committed (the overlay's .gitignore lists it). */
  signingKey: 'signing-key',
  /** The hub's public keys, as given to `cluster join --hub-keys`. */
  trustedKeys: 'trusted-keys',
  /** The agent's age identity (docs/secrets.md): mode 0600, never committed (the .gitignore lists it). */
  ageIdentity: 'age-identity',
  /** The agent's Git token: put there by the person, never committed (the .gitignore lists it). */
  gitToken: 'token',
  gitignore: '.gitignore',
} as const;

/** Where the overlay finds gitfleet's deploy folder, and what it configures. */
export interface AgentOverlay {
  cluster: string;
  /** The fleet repository's URL, as the agent fetches it. */
  repoUrl: string;
  /** deploy/agent and deploy/agent-signing, as the kustomization names them (paths relative to it, or remote URLs). */
  base: string;
  component: string;
  /** deploy/agent-secrets, likewise: the agent decrypts SOPS files with its age identity. */
  secretsComponent: string;
}

/** Returns the overlay's kustomization.yaml. */
export function agentOverlayKustomization(overlay: AgentOverlay): string {
  return [
    `# The gitfleet agent of member cluster ${overlay.cluster}, written by gitfleet cluster join:`,
    "# kubectl apply -k . in that cluster. signing-key and age-identity are the agent's private keys: never commit them.",
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'resources:',
    `  - ${quote(overlay.base)}`,
    'components:',
    `  - ${quote(overlay.component)}`,
    `  - ${quote(overlay.secretsComponent)}`,
    'configMapGenerator:',
    '  - name: gitfleet-agent-config',
    '    namespace: gitfleet-system',
    '    behavior: merge',
    '    literals:',
    `      - ${quote(`cluster=${overlay.cluster}`)}`,
    `      - ${quote(`repo=${overlay.repoUrl}`)}`,
    '  - name: gitfleet-agent-trusted-keys',
    '    namespace: gitfleet-system',
    '    files:',
    `      - ${overlayFiles.trustedKeys}`,
    'secretGenerator:',
    '  - name: gitfleet-agent-signing-key',
    '    namespace: gitfleet-system',
    '    type: Opaque',
    '    files:',
    `      - key=${overlayFiles.signingKey}`,
    '  - name: gitfleet-agent-age-identity',
    '    namespace: gitfleet-system',
    '    type: Opaque',
    '    files:',
    `      - identity=${overlayFiles.ageIdentity}`,
    "  # deploy/agent's placeholder goes; the token file beside this one (not written by gitfleet) comes in",
    '  - name: gitfleet-agent-git',
    '    namespace: gitfleet-system',
    '    behavior: replace',
    '    files:',
    `      - ${overlayFiles.gitToken}`,
    '',
  ].join('\n');
}

/** Returns the overlay's .gitignore: the private key stays out of any repository the overlay is kept in. */
export function agentOverlayGitignore(): string {
  return `# the agent's private keys and Git token: kept out of Git\n${overlayFiles.signingKey}\n${overlayFiles.ageIdentity}\n${overlayFiles.gitToken}\n`;
}

// A value that YAML could read as something else than a plain string is double-quoted.
function quote(value: string): string {
  return /^[A-Za-z0-9._/=@:?&+-]+$/.test(value) && !/^[-?:]/.test(value) ? value : JSON.stringify(value);
}
