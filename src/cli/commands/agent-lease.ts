// The agent's Lease in its cluster (docs/production.md#one-agent-per-cluster): its flags, what
// they ask for, and the Lease election that makes a second agent for the cluster stand by.
import type { FlagSpec } from '../command-line.js';
import type { Clock } from '../../loops/runtime/clock.js';
import type { Logger } from '../../loops/runtime/logger.js';
import { noElection, type Leadership } from '../../loops/runtime/leadership.js';
import { LeaseElection, leaseIdentity, type LeaseTimings } from '../../adapters/kube/lease-election.js';
import { leaseTimingsOf } from './lease-timings-of.js';
import { kubeLeaseStore } from '../../adapters/kube/lease-store.js';
import type { KubeClient } from '../../adapters/kube/kube-client.js';

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

/** Where the agent's Lease lives in its cluster, and its timings. */
export interface AgentLease extends LeaseTimings {
  namespace: string;
}

/** Returns the Lease the flags ask for: none with --no-lease or --once. */
export function agentLeaseOf(values: {
  once: boolean;
  'no-lease': boolean;
  'lease-namespace': string;
  'lease-duration': number;
  'lease-renew-deadline': number;
  'lease-retry-period': number;
}): { lease?: AgentLease } {
  if (values.once || values['no-lease']) return {};
  const timings = leaseTimingsOf(values, {
    leaseDurationMs: 'lease-duration',
    renewDeadlineMs: 'lease-renew-deadline',
    retryPeriodMs: 'lease-retry-period',
  });
  return { lease: { ...timings, namespace: values['lease-namespace'] } };
}

/** Returns the name of a cluster's agent Lease. */
export function agentLeaseName(cluster: string): string {
  return `gitfleet-agent-${cluster}`;
}

/** Returns the agent's leadership: the Lease election in its cluster, or none without a lease. */
export function agentLeadership(
  opts: { cluster: string; lease?: AgentLease },
  client: KubeClient,
  clock: Clock,
  log: Logger,
): Leadership {
  if (!opts.lease) return noElection();
  const store = kubeLeaseStore({
    http: client.http,
    namespace: opts.lease.namespace,
    name: agentLeaseName(opts.cluster),
    where: `member cluster ${opts.cluster}`,
    timeoutMs: Math.max(1000, Math.floor(opts.lease.renewDeadlineMs / 2)),
    namespaceHint: `the agent's deploy manifests create it (deploy/agent); create it, pass --lease-namespace, or run with --no-lease`,
  });
  return new LeaseElection({
    store,
    identity: leaseIdentity(),
    leaseDurationMs: opts.lease.leaseDurationMs,
    renewDeadlineMs: opts.lease.renewDeadlineMs,
    retryPeriodMs: opts.lease.retryPeriodMs,
    clock,
    random: Math.random,
    log,
  });
}
