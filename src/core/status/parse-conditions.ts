import { isMap } from '../model/kube-object.js';

/** A condition in Kubernetes' shape, as gitfleet writes them (no timestamps: see status-branch.ts). */
export interface StatusCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
}

const conditionStatuses: readonly string[] = ['True', 'False', 'Unknown'];

/** Returns the well-formed conditions of a list read from YAML, skipping the rest. */
export function parseConditions(value: unknown): StatusCondition[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isMap).flatMap((c): StatusCondition[] => {
    if (typeof c.type !== 'string' || typeof c.status !== 'string' || !conditionStatuses.includes(c.status)) {
      return [];
    }
    return [
      {
        type: c.type,
        status: c.status as StatusCondition['status'],
        ...(typeof c.reason === 'string' ? { reason: c.reason } : {}),
        ...(typeof c.message === 'string' ? { message: c.message } : {}),
      },
    ];
  });
}
