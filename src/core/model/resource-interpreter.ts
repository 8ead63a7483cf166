import type { InterpreterOperation } from './interpreter-customization.js';
import type { KubeObject } from './kube-object.js';

/** What one scripted call gave: its value, or why it failed (customization, operation and object named). */
export type InterpretOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** GetReplicas' second result: Karmada's ReplicaRequirements (work.karmada.io/v1alpha2), as JSON. */
export interface ReplicaRequirements {
  nodeClaim?: Record<string, unknown>;
  /** Resource name → quantity (`cpu: 500m`, `memory: 1Gi`). */
  resourceRequest?: Record<string, string | number>;
  namespace?: string;
  priorityClassName?: string;
}

/** AggregateStatus' input: one member cluster's reflected status (Karmada's AggregatedStatusItem). */
export interface AggregatedStatusItem {
  clusterName: string;
  status?: Record<string, unknown>;
  applied?: boolean;
  appliedMessage?: string;
  health?: 'Healthy' | 'Unhealthy' | 'Unknown';
}

/**
 * A call an interpreter may run ahead (ResourceInterpreter.prepare), named by its operation and
 * arguments, as the methods below take them.
 */
export type InterpretRequest =
  | {
      operation: 'InterpretReplica' | 'InterpretHealth' | 'InterpretStatus' | 'InterpretDependency';
      object: KubeObject;
    }
  | { operation: 'ReviseReplica'; object: KubeObject; replicas: number }
  | { operation: 'Retain'; object: KubeObject; observed: KubeObject }
  | { operation: 'AggregateStatus'; object: KubeObject; items: readonly AggregatedStatusItem[] | null };

/** GetDependencies' result entries (Karmada's DependentObjectReference). */
export interface DependentObjectReference {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name?: string;
  labelSelector?: Record<string, unknown>;
}

/**
 * Karmada's customized resource interpreter (pkg/resourceinterpreter/customized/declarative):
 * the scripts of the fleet's ResourceInterpreterCustomizations, run for objects whose
 * apiVersion and kind a customization targets. Every method returns undefined when no script
 * covers the object's kind and the operation (the caller then interprets it the built-in way),
 * else the script's outcome. Calls are synchronous and never throw for a script's failure; a
 * shell that can wait runs the calls it will make ahead with `prepare`, so that the scripts run
 * off its event loop and the synchronous calls find their results made.
 */
export interface ResourceInterpreter {
  /** Runs these calls ahead, asynchronously (absent: every call runs when it is made). */
  prepare?(requests: readonly InterpretRequest[]): Promise<void>;
  /**
   * Starts holding calls, for a pure stage whose calls the shell cannot tell ahead (the render's
   * ReviseReplica): until prepareHeld, a call not made ahead is not run; it fails and is kept.
   */
  holdCalls?(): void;
  /** Stops holding and runs the kept calls ahead, asynchronously; returns how many were kept. */
  prepareHeld?(): Promise<number>;
  /** Returns whether a script covers the operation for objects of this apiVersion and kind. */
  hookEnabled(apiVersion: string, kind: string, operation: InterpreterOperation): boolean;
  /** Returns a content key of every script for this apiVersion and kind ('' when none). */
  scriptsKey(apiVersion: string, kind: string): string;
  /** Returns GetReplicas' replicas and per-replica requirements. */
  getReplicas(
    object: KubeObject,
  ): InterpretOutcome<{ replicas: number; requirements?: ReplicaRequirements }> | undefined;
  /** Returns ReviseReplica's copy of the object with its replicas set for one cluster. */
  reviseReplica(object: KubeObject, replicas: number): InterpretOutcome<KubeObject> | undefined;
  /** Returns Retain's copy of the desired object keeping the fields the member cluster owns. */
  retain(desired: KubeObject, observed: KubeObject): InterpretOutcome<KubeObject> | undefined;
  /** Returns ReflectStatus' status to report from a live object. */
  reflectStatus(object: KubeObject): InterpretOutcome<Record<string, unknown>> | undefined;
  /** Returns InterpretHealth's verdict on a live object. */
  interpretHealth(object: KubeObject): InterpretOutcome<boolean> | undefined;
  /**
   * Returns AggregateStatus' copy of the template with the members' statuses aggregated. A
   * binding without status items passes null, as Karmada passes a nil slice (Lua sees nil).
   */
  aggregateStatus(
    object: KubeObject,
    items: readonly AggregatedStatusItem[] | null,
  ): InterpretOutcome<KubeObject> | undefined;
  /** Returns GetDependencies' references (every dependency script's, deduplicated and sorted). */
  getDependencies(object: KubeObject): InterpretOutcome<DependentObjectReference[]> | undefined;
}
