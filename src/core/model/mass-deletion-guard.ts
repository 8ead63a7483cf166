// The mass-deletion guard, one rule for both hops: the hub before it commits a cluster branch
// (core/publish/plan-cluster-update.ts) and the agent before it prunes (core/apply-plan/plan-prune.ts).
// Each phrases its own refusal; what counts as "too much" is decided here only
// (docs/architecture.md#mass-deletion-guard):
//
// | deleting                                                   | verdict |
// |------------------------------------------------------------|---------|
// | nothing, or from an empty set                              | allowed |
// | every object                                               | all     |
// | more than maxDeleteFraction of a set of over minObjects    | share   |
// | anything else                                              | allowed |

/** The guard's thresholds (the FleetConfig's `guards`). */
export interface DeletionGuard {
  /** Refuse deleting more than this share of the objects… */
  maxDeleteFraction: number;
  /** …when there are more than this many. */
  minObjects: number;
}

/** The default thresholds: refuse deleting everything, or more than half of over ten objects. */
export const defaultDeletionGuard: Readonly<DeletionGuard> = { maxDeleteFraction: 0.5, minObjects: 10 };

export type MassDeletionVerdict =
  | { type: 'allowed' }
  | { type: 'all'; total: number }
  | { type: 'share'; deleting: number; total: number; percent: number };

/** Returns whether deleting `deleting` of `total` objects passes the guard, and if not, why. */
export function judgeMassDeletion(
  total: number,
  deleting: number,
  guard: DeletionGuard,
): MassDeletionVerdict {
  if (deleting === 0 || total === 0) return { type: 'allowed' };
  if (deleting >= total) return { type: 'all', total };
  if (total > guard.minObjects && deleting / total > guard.maxDeleteFraction)
    return { type: 'share', deleting, total, percent: Math.round(guard.maxDeleteFraction * 100) };
  return { type: 'allowed' };
}
