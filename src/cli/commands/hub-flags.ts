// The hub's flag groups (leader election, render repositories' token, signing, commit statuses,
// notifications), declared apart from the code that acts on them so `gitfleet hub --help` and
// the usage load no Kubernetes, signing or forge client (hub-spec.ts puts them together).
import type { FlagSpec } from '../command-line.js';
import { forgeKinds } from '../../adapters/forge-status/forge-target.js';

/** The `--leader-elect*` flags of `gitfleet hub`. */
export const leaderElectFlags = {
  'leader-elect': {
    type: 'boolean',
    help: 'run passes only while this replica holds a coordination.k8s.io Lease (several hub replicas)',
  },
  'leader-elect-kubeconfig': {
    type: 'string',
    value: 'FILE',
    help: 'the kubeconfig of the cluster holding the Lease (default: in-cluster credentials)',
  },
  'leader-elect-resource-namespace': {
    type: 'string',
    value: 'NS',
    default: 'gitfleet-system',
    help: "the Lease's namespace",
  },
  'leader-elect-resource-name': {
    type: 'string',
    value: 'NAME',
    default: 'gitfleet-hub',
    help: "the Lease's name",
  },
  'leader-elect-lease-duration': {
    type: 'duration',
    value: 'DURATION',
    default: '15s',
    help: 'how long a standby waits, from when it last saw the Lease change, before taking it',
  },
  'leader-elect-renew-deadline': {
    type: 'duration',
    value: 'DURATION',
    default: '10s',
    help: 'how long the leader keeps leading without renewing (shorter than the lease duration)',
  },
  'leader-elect-retry-period': {
    type: 'duration',
    value: 'DURATION',
    default: '2s',
    help: 'how often the leader renews and a standby tries',
  },
} as const satisfies Record<string, FlagSpec>;

/** `hub --render-token-file FILE`. */
export const renderTokenFileFlag = {
  type: 'string',
  value: 'FILE',
  help: "for render repositories' URLs: a file holding the token (default: --token-file's, else $GITFLEET_GIT_TOKEN)",
} as const;

/** The hub's signing and source verification flags. */
export const hubSigningFlags = {
  'source-allowed-signers': {
    type: 'string',
    value: 'FILE',
    help: "verify source commits against these SSH keys (git's allowed_signers format) from outside the repository; with the FleetConfig's spec.sourceVerification or alone (docs/security.md)",
  },
  'source-openpgp-keys': {
    type: 'string',
    value: 'FILE',
    help: 'verify source commits against these armored OpenPGP public keys, as --source-allowed-signers',
  },
  'source-verification': {
    type: 'string',
    choices: ['head', 'strict'],
    help: 'the mode of source verification when the FleetConfig does not say: head (the rendered commit is signed) or strict (every commit since the last verified one)',
  },
  'signing-key': {
    type: 'string',
    value: 'FILE',
    help: 'sign every commit the hub writes with this key: an OpenSSH ed25519 private key or an armored OpenPGP private key, unencrypted (a mounted Secret); docs/security.md',
  },
  'trusted-keys': {
    type: 'string',
    value: 'FILE',
    help: "with --signing-key: the hub's earlier public keys (allowed_signers lines or armored OpenPGP public keys) whose records on its branches it still trusts as its own, during a rotation; records no hub key signed are not trusted",
  },
  'adopt-records': {
    type: 'string',
    value: 'COMMIT',
    help: "with --signing-key: the full id of the unsigned bindings head to read as the hub's own on its first signed pass, so placements, evictions and rollouts in progress carry on when signing is turned on; any other unsigned head is not trusted",
  },
} as const satisfies Record<string, FlagSpec>;

/** The default context (GitLab: name) of the status. */
export const defaultCommitStatusContext = 'gitfleet/deploy';

/** The hub's commit-status flags. */
export const commitStatusFlags = {
  'commit-status-token-file': {
    type: 'string',
    value: 'FILE',
    help: "post the rendered source commit's deploy status (pending, success, failure) to its forge with the API token in this file (docs/commit-statuses.md)",
  },
  'commit-status-forge': {
    type: 'string',
    choices: forgeKinds,
    help: 'with --commit-status-token-file: the forge (default: from the --repo URL: github.com, a host naming gitlab, gitea or forgejo)',
  },
  'commit-status-api-url': {
    type: 'string',
    value: 'URL',
    help: "with --commit-status-token-file: the forge's API base (default https://api.github.com, https://HOST/api/v3 for GitHub Enterprise, https://HOST/api/v4 for GitLab, https://HOST/api/v1 for Gitea)",
  },
  'commit-status-repo': {
    type: 'string',
    value: 'OWNER/NAME',
    help: "with --commit-status-token-file: the forge's repository (default: the --repo URL's path; GitLab: group/project)",
  },
  'commit-status-context': {
    type: 'string',
    value: 'NAME',
    help: `with --commit-status-token-file: the status's context (GitLab: name) (default ${defaultCommitStatusContext})`,
  },
  'commit-status-target-url': {
    type: 'string',
    value: 'URL',
    help: 'with --commit-status-token-file: the link of the status (a dashboard)',
  },
} as const satisfies Record<string, FlagSpec>;

/** The notifier's flag. */
export const notificationsFlags = {
  'notifications-secrets-dir': {
    type: 'string',
    value: 'DIR',
    help: 'where the files a NotificationPolicy names (urlFile, hmacKeyFile) are read (a mounted Secret); never the fleet repository',
  },
} as const;
