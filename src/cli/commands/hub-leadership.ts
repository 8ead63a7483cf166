// The hub's leader election (docs/production.md#leader-election): kube-controller-manager's
// flags, names and defaults (declared in hub-flags.ts), what they ask for, and the Lease election they build.
import { UsageError } from '../usage-error.js';
import type { Clock } from '../../loops/runtime/clock.js';
import type { Logger } from '../../loops/runtime/logger.js';
import { noElection, type Leadership } from '../../loops/runtime/leadership.js';
import { LeaseElection, leaseIdentity, type LeaseTimings } from '../../adapters/kube/lease-election.js';
import { leaseTimingsOf } from './lease-timings-of.js';
import { kubeLeaseStore } from '../../adapters/kube/lease-store.js';
import { loadKubeConfig } from '../../adapters/kube/load-kube-config.js';
import { KubeHttp } from '../../adapters/kube/kube-http.js';

/** Where the hub's Lease lives and its timings. */
export interface HubLeaderElection extends LeaseTimings {
  /** The kubeconfig of the Lease's cluster (default: in-cluster credentials). */
  kubeconfig?: string;
  namespace: string;
  name: string;
}

/** Returns the leader election the flags ask for, or nothing without --leader-elect. */
export function leaderElectionOf(values: {
  'leader-elect': boolean;
  once: boolean;
  'leader-elect-kubeconfig'?: string | undefined;
  'leader-elect-resource-namespace': string;
  'leader-elect-resource-name': string;
  'leader-elect-lease-duration': number;
  'leader-elect-renew-deadline': number;
  'leader-elect-retry-period': number;
}): { leaderElection?: HubLeaderElection } {
  if (!values['leader-elect']) return {};
  if (values.once)
    throw new UsageError('--leader-elect is for the loop: a hub with --once runs its one pass without one');
  const timings = leaseTimingsOf(values, {
    leaseDurationMs: 'leader-elect-lease-duration',
    renewDeadlineMs: 'leader-elect-renew-deadline',
    retryPeriodMs: 'leader-elect-retry-period',
  });
  return {
    leaderElection: {
      ...timings,
      ...(values['leader-elect-kubeconfig'] ? { kubeconfig: values['leader-elect-kubeconfig'] } : {}),
      namespace: values['leader-elect-resource-namespace'],
      name: values['leader-elect-resource-name'],
    },
  };
}

/**
 * Returns the hub's leadership: the test's, the Lease election that --leader-elect asks for
 * (its client built from --leader-elect-kubeconfig, else the Pod's credentials), or none.
 */
export async function withLeadership(
  opts: { leaderElection?: HubLeaderElection; once: boolean },
  deps: { clock: Clock; random: () => number; log: Logger },
  given: { leadership?: Leadership },
): Promise<{ leadership: Leadership; close: () => void }> {
  const none = () => undefined;
  if (given.leadership) return { leadership: given.leadership, close: none };
  const election = opts.leaderElection;
  if (!election || opts.once) return { leadership: noElection(), close: none };
  const credentials = await loadKubeConfig({
    ...(election.kubeconfig ? { kubeconfig: election.kubeconfig } : {}),
    inClusterDefault: true,
  });
  const http = new KubeHttp(credentials.kc, {
    maxSockets: 2,
    ...(credentials.bearerToken ? { bearerToken: credentials.bearerToken } : {}),
  });
  const store = kubeLeaseStore({
    http,
    namespace: election.namespace,
    name: election.name,
    where: `the cluster of ${credentials.source}`,
    // Two requests (read, then update) must fit in the renew deadline.
    timeoutMs: Math.max(1000, Math.floor(election.renewDeadlineMs / 2)),
    namespaceHint:
      "the hub's deploy manifests create it (deploy/hub), or pass --leader-elect-resource-namespace",
  });
  const leadership = new LeaseElection({
    store,
    identity: leaseIdentity(),
    leaseDurationMs: election.leaseDurationMs,
    renewDeadlineMs: election.renewDeadlineMs,
    retryPeriodMs: election.retryPeriodMs,
    clock: deps.clock,
    random: deps.random,
    log: deps.log,
  });
  return { leadership, close: () => http.close() };
}
