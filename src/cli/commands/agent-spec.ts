// `gitfleet agent`'s command line: its flags and the check of a cluster name.
import { forgeFlag } from '../forge-profile.js';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { logFormatFlag, logLevelFlag, metricsAddrFlag } from '../observability-flags.js';
import { agentLeaseFlags, agentSecretsFlags, agentSigningFlags, renderRepoFlags } from './agent-flags.js';
import { repoFlag, tokenFileFlag, cacheDirFlag } from '../shared-flags.js';
import type { CommandSpec } from '../command-line.js';

/** Karmada's `--cluster-status-update-frequency` default. */
export const defaultStatusUpdateFrequencyMs = 10_000;

/** Whether a name is a DNS label, as cluster names are. */
export function isClusterName(name: string): boolean {
  return /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name);
}

/** Whether a fleet identity is a label value (at most 63 characters: letters, digits, `-_.`, alphanumeric at both ends). */
export function isFleetIdentity(value: string): boolean {
  return value.length <= 63 && /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(value);
}

/** `gitfleet agent`: its command line. */
export const agentSpec = {
  name: 'agent',
  summary:
    "apply the cluster's branch to the cluster and report to the status branch, once or on every change",
  positionals: [],
  flags: {
    repo: repoFlag,
    forge: forgeFlag,
    cluster: {
      type: 'string',
      value: 'NAME',
      required: true,
      help: 'the member cluster this agent applies (a DNS label)',
    },
    kubeconfig: {
      type: 'string',
      value: 'FILE',
      help: 'the kubeconfig to use (default: $KUBECONFIG, ~/.kube/config or in-cluster)',
    },
    context: {
      type: 'string',
      value: 'C',
      help: 'the kubeconfig context to use (default: its current context)',
    },
    once: { type: 'boolean', help: 'run one pass and exit with its outcome' },
    interval: { type: 'duration', value: 'DURATION', default: '30s', help: 'resync period of the loop' },
    'branch-poll': {
      type: 'duration',
      value: 'DURATION',
      default: '1s',
      help: 'with a URL: how often to ask the remote (one ls-refs of the cluster branch) whether the branch moved',
    },
    'notify-url': {
      type: 'string',
      value: 'URL',
      help: "with a URL: the hub's doorbell (hub --notify-addr), held open so a new commit is fetched at once and Git is polled only every --safety-poll",
    },
    'notify-token-file': {
      type: 'string',
      value: 'FILE',
      help: "the file holding this cluster's doorbell token (the hub's --notify-tokens names it)",
    },
    'safety-poll': {
      type: 'duration',
      value: 'DURATION',
      default: '5m',
      help: 'while the doorbell answers: how often Git is still asked, in case it misses a commit',
    },
    'doorbell-heartbeat': {
      type: 'duration',
      value: 'DURATION',
      help: 'while the doorbell answers: how often the heartbeat ref is still pushed (its beacons prove life meanwhile; default: --safety-poll)',
    },
    'push-spread': {
      type: 'duration',
      value: 'DURATION',
      help: "without the hub's push slots (its doorbell gives them): push status and heartbeat at most once per this long, the first at a random moment within it, so a fleet started together does not push together (default: the forge profile's; none: push at once)",
    },
    'export-coalesce': {
      type: 'duration',
      value: 'DURATION',
      default: '1s',
      help: 'window over which changes of exported EndpointSlices are coalesced into one status commit',
    },
    'branch-prefix': {
      type: 'string',
      value: 'PREFIX',
      default: defaultBranchPrefix,
      help: "the prefix of the hub's branches",
    },
    'allow-deletions': { type: 'boolean', help: 'prune past the mass-deletion guard in this run' },
    'return-prune-timeout': {
      type: 'duration',
      value: 'DURATION',
      default: '5m',
      help: 'after a return from maybe being judged down: how long deletions wait for the hub to render from a Ready report before pruning goes on anyway',
    },
    fleet: {
      type: 'string',
      value: 'ID',
      help: "the fleet's identity in the ownership label gitfleet.io/fleet (default: the root commit of the cluster branch)",
    },
    'cluster-status-update-frequency': {
      type: 'duration',
      value: 'DURATION',
      default: '10s',
      help: "how old the cluster's facts (API enablements, nodes, capacity) may be before a pass reads them again",
    },
    'cluster-lease-duration': {
      type: 'duration',
      value: 'DURATION',
      default: '40s',
      help: 'the heartbeat lease: the heartbeat ref is renewed every duration × renew fraction',
    },
    'cluster-lease-renew-interval-fraction': {
      type: 'fraction',
      value: 'FRACTION',
      default: '0.25',
      help: 'the fraction of the lease duration between two heartbeats',
    },
    ...agentSigningFlags,
    ...agentSecretsFlags,
    ...agentLeaseFlags,
    'token-file': tokenFileFlag,
    'status-repo': {
      type: 'string',
      value: 'URL|PATH',
      help: "where to write the status branch and heartbeat (default: the cluster branch's .gitfleet/status-repository, else --repo)",
    },
    'status-token-file': {
      type: 'string',
      value: 'FILE',
      help: 'for a status repository URL: a file holding its token (default: --token-file, else $GITFLEET_GIT_TOKEN)',
    },
    ...renderRepoFlags,
    'cache-dir': cacheDirFlag,
    output: {
      type: 'string',
      choices: ['text', 'json'],
      default: 'text',
      help: 'print pass results as text or JSON',
    },
    'metrics-addr': metricsAddrFlag,
    'log-format': logFormatFlag,
    'log-level': logLevelFlag,
  },
} as const satisfies CommandSpec;
