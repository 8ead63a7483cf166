import type { KubeObject } from '../../core/model/kube-object.js';
import type { ObjectRef } from '../../core/model/object-ref.js';
import type { ObjectStatusRecord } from '../../core/status/status-branch.js';

/** What happened to one object in a pass. */
export type ObjectAction =
  | 'created'
  | 'updated'
  | 'driftCorrected'
  | 'takenOver'
  | 'recreated'
  | 'unchanged'
  | 'refused'
  | 'driftPaused'
  | 'failed';

/** One object's outcome in a pass: what was done and what is live after it. */
export interface ObjectResult {
  ref: ObjectRef;
  path: string;
  digest: string;
  action: ObjectAction;
  /** The manifest is in place: applied now, or found unchanged. */
  applied: boolean;
  message?: string;
  /** The live object after the pass, when known (only its metadata when `record` is set). */
  live?: KubeObject;
  /** The status record, when the object was found as the last report saw it (agent-memory.ts `observed`). */
  record?: Readonly<ObjectStatusRecord>;
  /** The same manifest may succeed on a later pass. */
  retryable?: boolean;
}
