// The one parser of the flags that time a Lease election, for the agent's Lease (--lease-*) and
// the hub's (--leader-elect-*): three durations, checked together (adapters/kube/lease-election.ts
// leaseTimingsProblem), a usage error naming the flag that does not fit.
import { UsageError } from '../usage-error.js';
import { leaseTimingsProblem, type LeaseTimings } from '../../adapters/kube/lease-election.js';

/** Returns the Lease timings the three duration flags give (`flags` names each flag, with its --). */
export function leaseTimingsOf<K extends string>(
  values: Readonly<Record<K, number>>,
  flags: Readonly<Record<keyof LeaseTimings, K>>,
): LeaseTimings {
  const timings: LeaseTimings = {
    leaseDurationMs: values[flags.leaseDurationMs],
    renewDeadlineMs: values[flags.renewDeadlineMs],
    retryPeriodMs: values[flags.retryPeriodMs],
  };
  const problem = leaseTimingsProblem(timings, (name) => `--${flags[name]}`);
  if (problem) throw new UsageError(problem);
  return timings;
}
