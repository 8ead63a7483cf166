/**
 * The health of a live object, in Argo CD's words (gitops-engine `pkg/health`). Karmada's
 * `ResourceHealth` has only Healthy / Unhealthy / Unknown; gitfleet keeps Argo CD's finer split of
 * "not healthy" into Progressing (still converging, give it time) and Degraded (failed, a person
 * should look). Suspended (a paused Deployment, a suspended Job) is reported as Progressing.
 */
export type HealthStatus = 'Healthy' | 'Progressing' | 'Degraded' | 'Unknown';

/** A health verdict with the reason a user reads next to it. */
export interface Health {
  status: HealthStatus;
  message?: string;
}

/** Every health status, for readers that validate text from Git. */
export const healthStatuses: readonly HealthStatus[] = ['Healthy', 'Progressing', 'Degraded', 'Unknown'];

/** Returns a Health value, leaving out an empty message. */
export function health(status: HealthStatus, message?: string): Health {
  return message ? { status, message } : { status };
}

/**
 * What the caller knows of an object beyond its live state. `specApplied`: the generation the API
 * server gave the object when this agent last applied a change of its spec, and when (ms since
 * the epoch, the agent's clock). A Deployment's progress deadline is judged as of after it.
 */
export interface HealthContext {
  specApplied?: { generation: number; atMs: number };
}
