// The agent's flag groups (its Lease, signing, age identities, render repository), declared apart from the code
// that acts on them so `gitfleet agent --help` and the usage load no Kubernetes or age client
// (agent-spec.ts puts them together).
import type { FlagSpec } from '../command-line.js';

/** The agent's `--no-lease` and `--lease-*` flags. */
export const agentLeaseFlags = {
  'no-lease': {
    type: 'boolean',
    help: 'run without the Lease that makes a second agent for the cluster stand by (the loop takes one by default)',
  },
  'lease-namespace': {
    type: 'string',
    value: 'NS',
    default: 'gitfleet-system',
    help: 'the namespace of the Lease gitfleet-agent-<cluster> in the cluster (the deploy manifests create it)',
  },
  'lease-duration': {
    type: 'duration',
    value: 'DURATION',
    default: '15s',
    help: 'how long a standby agent waits, from when it last saw the Lease change, before taking it',
  },
  'lease-renew-deadline': {
    type: 'duration',
    value: 'DURATION',
    default: '10s',
    help: 'how long the agent holding the Lease keeps applying without renewing it',
  },
  'lease-retry-period': {
    type: 'duration',
    value: 'DURATION',
    default: '2s',
    help: 'how often the holder renews and a standby tries',
  },
} as const satisfies Record<string, FlagSpec>;

/** The agent's signing flags. */
export const agentSigningFlags = {
  'trusted-keys': {
    type: 'string',
    value: 'FILE',
    help: "apply only a cluster branch head signed by one of these keys (the hub's: allowed_signers lines or armored OpenPGP public keys); an unsigned or badly signed head is neither applied nor pruned",
  },
  'signing-key': {
    type: 'string',
    value: 'FILE',
    help: "sign the status and heartbeat commits with this key (the cluster's own: an OpenSSH ed25519 or armored OpenPGP private key, unencrypted)",
  },
} as const satisfies Record<string, FlagSpec>;

/** The agent's secrets flags. */
export const agentSecretsFlags = {
  'age-identity': {
    type: 'string',
    value: 'FILE',
    help: 'decrypt SOPS-encrypted files with the age identities in FILE (one a line: several during a key rotation)',
  },
  'age-identity-secret': {
    type: 'string',
    value: 'NS/NAME',
    help: 'decrypt SOPS-encrypted files with the age identities in this Secret of the member cluster (every data key read as an identity file)',
  },
} as const satisfies Record<string, FlagSpec>;

/** `agent --render-repo` and `--render-token-file`. */
export const renderRepoFlags = {
  'render-repo': {
    type: 'string',
    value: 'URL|PATH',
    help: "where to read the cluster branch (default: the render repository the fleet repository's bindings branch names for the cluster, else --repo)",
  },
  'render-token-file': {
    type: 'string',
    value: 'FILE',
    help: 'for a render repository URL: a file holding its token (default: --token-file, else $GITFLEET_GIT_TOKEN)',
  },
} as const satisfies Record<string, FlagSpec>;
