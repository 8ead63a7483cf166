import type { ClusterDiagnosis, ScheduleResult } from '../model/binding.js';
import type { ClusterAffinityTerm } from '../model/propagation-policy.js';
import { scheduleForAffinity, type AffinityOutcome } from './schedule-for-affinity.js';
import type { ScheduleInput } from './schedule-input.js';

export type { ReplicaRequest } from './replica-request-of.js';

/**
 * Returns where the template goes and with how many replicas, or why it goes nowhere
 * (Karmada's scheduler, pkg/scheduler/scheduler.go scheduleResourceBinding). Deterministic:
 * the same input always gives the same output; clusters are sorted by name.
 */
export function scheduleBinding(input: ScheduleInput): ScheduleResult {
  const terms = input.placement.clusterAffinities ?? [];
  if (terms.length === 0) {
    const outcome = scheduleForAffinity(input, input.placement.clusterAffinity);
    return outcome.ok ? scheduled(outcome) : noFit(outcome);
  }
  return scheduleWithAffinityTerms(input, terms);
}

/**
 * Ordered clusterAffinities (Karmada's scheduleResourceBindingWithClusterAffinities):
 *   - start at the term the previous result was made with (first term when none or unknown,
 *     or when a reschedule was asked for); earlier terms are not tried again, so a binding
 *     that fell back stays there until a WorkloadRebalancer asks;
 *   - try each term in turn; the first that schedules wins and is recorded as affinityName;
 *   - when every term fails, the first failure decides: a filter failure clears the
 *     clusters, any other failure keeps the previous ones (`keepPrevious`) and its reason.
 */
function scheduleWithAffinityTerms(
  input: ScheduleInput,
  terms: readonly ClusterAffinityTerm[],
): ScheduleResult {
  const start = input.fresh
    ? 0
    : Math.max(
        0,
        terms.findIndex((t) => t.affinityName === input.previous?.affinityName),
      );
  const failures: { term: ClusterAffinityTerm; outcome: Extract<AffinityOutcome, { ok: false }> }[] = [];
  for (const term of terms.slice(start)) {
    const outcome = scheduleForAffinity(input, term);
    if (outcome.ok) return { ...scheduled(outcome), affinityName: term.affinityName };
    failures.push({ term, outcome });
  }
  const diagnosis: ClusterDiagnosis[] = failures.flatMap(({ term, outcome }) =>
    outcome.diagnosis.map((d) => ({ ...d, reason: `[${term.affinityName}] ${d.reason}` })),
  );
  const message = `no clusterAffinities term fits: ${failures
    .map(({ term, outcome }) => `[${term.affinityName}] ${outcome.message}`)
    .join('; ')}`;
  const first = failures[0]!.outcome;
  const result: ScheduleResult = { type: 'NoFit', diagnosis, message };
  return first.fitError ? result : { ...result, reason: first.reason, keepPrevious: true };
}

function scheduled(
  outcome: Extract<AffinityOutcome, { ok: true }>,
): Extract<ScheduleResult, { type: 'Scheduled' }> {
  return {
    type: 'Scheduled',
    clusters: outcome.clusters,
    ...(outcome.refused.length > 0 ? { refused: outcome.refused } : {}),
  };
}

// A filter failure is NoClusterFit, left unsaid; any other failure names its reason.
function noFit(outcome: Extract<AffinityOutcome, { ok: false }>): ScheduleResult {
  const result: ScheduleResult = { type: 'NoFit', diagnosis: outcome.diagnosis, message: outcome.message };
  return outcome.fitError ? result : { ...result, reason: outcome.reason, keepPrevious: true };
}
