import { healthOf } from '../health/health-of.js';
import type { KubeObject } from '../model/kube-object.js';
import type { ObjectRef } from '../model/object-ref.js';
import { reflectStatus } from './reflect-status.js';
import type { ObjectStatusRecord } from './status-branch.js';

/**
 * Returns the status record of one object from its apply result and its live state: health by
 * healthOf, status by reflectStatus; Unknown health when the live object could not be read.
 */
export function objectStatusRecord(input: {
  ref: ObjectRef;
  applied: boolean;
  /** The apply error, when it failed. */
  message?: string;
  /** The object as the member cluster has it now, if it could be read. */
  live?: KubeObject;
}): ObjectStatusRecord {
  const base = {
    ref: input.ref,
    applied: input.applied,
    ...(input.message !== undefined ? { message: input.message } : {}),
  };
  if (!input.live)
    return { ...base, health: 'Unknown', healthMessage: 'the object could not be read from the cluster' };
  const health = healthOf(input.live);
  const status = reflectStatus(input.live);
  return {
    ...base,
    health: health.status,
    ...(health.message !== undefined ? { healthMessage: health.message } : {}),
    ...(status ? { status } : {}),
  };
}
