// The agent's Lease in its cluster (docs/production.md#one-agent-per-cluster): what its flags
// (agent-flags.ts) ask for, and the Lease election that makes a second agent for the cluster stand by.
import type { Clock } from '../../loops/runtime/clock.js';
import type { Logger } from '../../loops/runtime/logger.js';
import { noElection, type Leadership } from '../../loops/runtime/leadership.js';
import { LeaseElection, leaseIdentity, type LeaseTimings } from '../../adapters/kube/lease-election.js';
import { leaseTimingsOf } from './lease-timings-of.js';
import { kubeLeaseStore } from '../../adapters/kube/lease-store.js';
import type { KubeClient } from '../../adapters/kube/kube-client.js';

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
