// `gitfleet hub`'s command line: its flags, and the checks of the values no flag type makes
// (a followed branch, an eviction rate, the monitor's period against its grace period).
import { forgeFlag } from '../forge-profile.js';
import { logFormatFlag, logLevelFlag, metricsAddrFlag } from '../observability-flags.js';
import { repoFlag, tokenFileFlag, cacheDirFlag } from '../shared-flags.js';
import type { CommandSpec } from '../command-line.js';
import { defaultBranchPrefix } from '../../core/model/fleet-config.js';
import { escapeText, quoteText } from '../../core/model/quote-text.js';
import {
  commitStatusFlags,
  hubSigningFlags,
  leaderElectFlags,
  notificationsFlags,
  renderTokenFileFlag,
} from './hub-flags.js';
import { luaFlags } from '../lua-flags.js';
import { sourceFlags } from '../source-flags.js';
import type { ClusterMonitorSettings } from '../../loops/hub/cluster-monitor-rules.js';
import { UsageError } from '../usage-error.js';
import { branchNameProblem } from '../../core/model/parse-revision.js';
import type { FailoverSettings } from '../../core/model/failover.js';

/** `gitfleet hub`: its command line. */
export const hubSpec = {
  name: 'hub',
  summary: "render the source branch into the hub's branches, once or on every change",
  positionals: [],
  flags: {
    repo: repoFlag,
    forge: forgeFlag,
    'source-ref': {
      type: 'string',
      value: 'BRANCH',
      default: 'main',
      help: 'the branch to follow: each new commit on it is rendered (a branch, not a fixed revision)',
    },
    once: { type: 'boolean', help: 'run one pass and exit with its outcome' },
    interval: { type: 'duration', value: 'DURATION', default: '30s', help: 'resync period of the loop' },
    ...luaFlags,
    ...sourceFlags,
    output: {
      type: 'string',
      choices: ['text', 'json'],
      default: 'text',
      help: 'print pass results as text or JSON',
    },
    'token-file': tokenFileFlag,
    'render-token-file': renderTokenFileFlag,
    'cache-dir': cacheDirFlag,
    'webhook-port': { type: 'port', value: 'PORT', help: 'for a URL: serve the push webhook on this port' },
    'webhook-addr': {
      type: 'string',
      value: 'ADDR',
      help: "for a URL: the webhook's bind address (default 127.0.0.1)",
    },
    'webhook-secret-file': {
      type: 'string',
      value: 'FILE',
      help: "for a URL: a file holding the webhook's secret (else $GITFLEET_WEBHOOK_SECRET)",
    },
    'branch-prefix': {
      type: 'string',
      value: 'PREFIX',
      help: `the prefix of the hub's branches: for a URL, the ones its mirror holds; for the cluster monitor, where it reads the heartbeats (default ${defaultBranchPrefix})`,
    },
    'cluster-monitor-period': {
      type: 'duration',
      value: 'DURATION',
      default: '5s',
      help: "how often the hub looks at the agents' heartbeat and status refs",
    },
    'cluster-monitor-grace-period': {
      type: 'duration',
      value: 'DURATION',
      default: '40s',
      help: "how long a cluster's heartbeat and status may stand still before the hub judges it Unknown",
    },
    'cluster-startup-grace-period': {
      type: 'duration',
      value: 'DURATION',
      default: '60s',
      help: 'the same for a cluster whose agent never wrote a status branch',
    },
    'cluster-success-threshold': {
      type: 'duration',
      value: 'DURATION',
      default: '30s',
      help: 'how long a judged cluster must be seen alive, without a break, before it is judged no more',
    },
    'status-record-interval': {
      type: 'duration',
      value: 'DURATION',
      help: "the least time between two bindings commits that only record the agents' moved statuses: one push to the fleet repository each (default: none; the github profile: 30s, leaving the fleet repository's push budget to people; docs/git-budget.md#pacing)",
    },
    // Karmada's controller-manager flags of the taint manager and graceful eviction (docs/failover.md).
    'enable-no-execute-taint-eviction': {
      type: 'boolean',
      help: 'evict bindings from clusters with NoExecute taints they do not tolerate (off, as in Karmada v1.14+)',
    },
    'no-execute-taint-eviction-purge-mode': {
      type: 'string',
      choices: ['Directly', 'Gracefully'],
      default: 'Gracefully',
      help: "how a NoExecute eviction removes the old copy when the policy's failover.cluster does not say",
    },
    'resource-eviction-rate': {
      type: 'string',
      value: 'RATE',
      default: '0.5',
      help: 'NoExecute evictions per second, in bursts of three (0: one burst every 30 minutes)',
    },
    'graceful-eviction-timeout': {
      type: 'duration',
      value: 'DURATION',
      default: '10m',
      help: 'how long a Gracefully evicted copy waits for the new copies to be healthy',
    },
    // Karmada's webhook flags (up to v1.14) for the default tolerations of every policy.
    'default-not-ready-toleration-seconds': {
      type: 'string',
      value: 'SECONDS',
      default: '300',
      help: 'the tolerationSeconds of the cluster.karmada.io/not-ready:NoExecute toleration a policy gets when it has none',
    },
    'default-unreachable-toleration-seconds': {
      type: 'string',
      value: 'SECONDS',
      default: '300',
      help: 'the same for cluster.karmada.io/unreachable:NoExecute',
    },
    // The node lifecycle controller's disruption flags, with the fleet as its zone.
    'unhealthy-fleet-threshold': {
      type: 'fraction',
      value: 'FRACTION',
      default: '0.55',
      help: 'with more than 2 clusters not Ready and at least this share of the fleet, NoExecute evictions stop (or slow, in a large fleet)',
    },
    'large-fleet-size-threshold': {
      type: 'string',
      value: 'COUNT',
      default: '50',
      help: 'a fleet of more clusters than this is large: when disrupted, it evicts at the secondary rate instead of not at all',
    },
    'secondary-resource-eviction-rate': {
      type: 'string',
      value: 'RATE',
      default: '0.01',
      help: 'NoExecute evictions per second of a large fleet at or above --unhealthy-fleet-threshold (0: none)',
    },
    ...leaderElectFlags,
    ...hubSigningFlags,
    ...notificationsFlags,
    'notify-addr': {
      type: 'string',
      value: 'HOST:PORT',
      help: "serve the agents' doorbell here (default: off; the host defaults to 127.0.0.1; TLS belongs to the Ingress in front)",
    },
    'notify-tokens': {
      type: 'string',
      value: 'FILE',
      help: 'with --notify-addr: a YAML or JSON map of cluster name to its doorbell token, or to sha256:<hex> of it',
    },
    ...commitStatusFlags,
    'metrics-addr': metricsAddrFlag,
    'log-format': logFormatFlag,
    'log-level': logLevelFlag,
  },
} as const satisfies CommandSpec;

/**
 * Returns the --source-ref a hub follows; a usage error for a revision that names one fixed
 * commit (`HEAD~1`, a tag, a commit id): the hub renders each new commit of a branch and records
 * it as the branch's render, so a revision that never moves is refused, with --once too (the
 * commit would be recorded as the branch's latest render); `gitfleet render --ref` and
 * `gitfleet diff` take any revision.
 */
export function followedBranch(sourceRef: string): string {
  const problem = branchNameProblem(sourceRef);
  if (problem === undefined) return sourceRef;
  throw new UsageError(
    `--source-ref ${quoteText(sourceRef)}: the hub follows a branch and renders each new commit on it, ` +
      `but ${problem}; name a branch (main, refs/heads/release), or use gitfleet render --ref or gitfleet diff for one commit`,
  );
}

/** Returns --resource-eviction-rate (or the flag named) as a number: 0 or more, evictions per second. */
export function parseEvictionRate(text: string, flag = 'resource-eviction-rate'): number {
  const rate = Number(text);
  if (text.trim() === '' || !Number.isFinite(rate) || rate < 0) {
    throw new UsageError(
      `--${flag} must be a number of evictions per second, 0 or more, not '${escapeText(text)}'`,
    );
  }
  return rate;
}

/** Returns a flag's whole number, 0 or more (seconds, a count), or a usage error naming the flag. */
export function parseWholeNumber(text: string, flag: string, what: string): number {
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`--${flag} must be a whole number of ${what}, 0 or more, not '${escapeText(text)}'`);
  }
  return Number(text);
}

/** Returns the hub's failover settings from its flags (Karmada's names; docs/failover.md). */
export function failoverSettingsOf(values: {
  'enable-no-execute-taint-eviction': boolean;
  'no-execute-taint-eviction-purge-mode': 'Directly' | 'Gracefully';
  'resource-eviction-rate': string;
  'graceful-eviction-timeout': number;
  'default-not-ready-toleration-seconds': string;
  'default-unreachable-toleration-seconds': string;
  'unhealthy-fleet-threshold': number;
  'large-fleet-size-threshold': string;
  'secondary-resource-eviction-rate': string;
}): FailoverSettings {
  const seconds = (flag: 'default-not-ready-toleration-seconds' | 'default-unreachable-toleration-seconds') =>
    parseWholeNumber(values[flag], flag, 'seconds');
  return {
    enableNoExecuteTaintEviction: values['enable-no-execute-taint-eviction'],
    noExecuteTaintEvictionPurgeMode: values['no-execute-taint-eviction-purge-mode'],
    resourceEvictionRate: parseEvictionRate(values['resource-eviction-rate']),
    gracefulEvictionTimeoutSeconds: values['graceful-eviction-timeout'] / 1000,
    defaultNotReadyTolerationSeconds: seconds('default-not-ready-toleration-seconds'),
    defaultUnreachableTolerationSeconds: seconds('default-unreachable-toleration-seconds'),
    unhealthyFleetThreshold: values['unhealthy-fleet-threshold'],
    largeFleetSizeThreshold: parseWholeNumber(
      values['large-fleet-size-threshold'],
      'large-fleet-size-threshold',
      'clusters',
    ),
    secondaryResourceEvictionRate: parseEvictionRate(
      values['secondary-resource-eviction-rate'],
      'secondary-resource-eviction-rate',
    ),
  };
}

/** Returns the monitor settings, or a usage error when the period is not shorter than the grace period. */
export function monitorSettings(settings: ClusterMonitorSettings): ClusterMonitorSettings {
  // Karmada says the same of its flags: a look less often than the grace period would judge
  // live clusters between two looks.
  if (settings.periodMs >= settings.gracePeriodMs) {
    throw new UsageError(
      `--cluster-monitor-period (${settings.periodMs} ms) must be shorter than --cluster-monitor-grace-period (${settings.gracePeriodMs} ms)`,
    );
  }
  return settings;
}
