// "May I?" asked of the API server before the agent writes: one SelfSubjectAccessReview
// (authorization.k8s.io/v1) per question, for the credentials the client sends. The API has no
// batch form, so questions go side by side, a few at a time, each with its own timeout. A
// review creates nothing: the server answers it and stores nothing.
//
// | the server's answer                   | AccessAnswer                                    |
// |---------------------------------------|-------------------------------------------------|
// | 201 with status.allowed true          | allowed                                         |
// | 201 with status.allowed false         | denied (status.reason, when the authorizer gave one) |
// | the kind is not served (a CRD not yet applied) | unknown: the apply itself will tell    |
// | another status, or no answer in time  | unknown: the apply itself will tell             |
// | with `as`, the agent may not impersonate that user (403) | unknown: the apply, impersonating, will tell |
import { mapConcurrent } from '../map-concurrent.js';
import { groupOf, type ObjectRef } from '../../core/model/object-ref.js';
import type { KubeClient } from './kube-client.js';
import { reviewPath } from './kube-http.js';

/** A verb the agent uses, as RBAC names it. */
export type AccessVerb = 'get' | 'list' | 'watch' | 'create' | 'patch' | 'delete';

/**
 * One question: may the client do `verb` on the resource serving `kind`, in `namespace` ('' =
 * every namespace, or cluster-scoped; a Namespace's own name for a Namespace)? With `as`, the
 * review is asked impersonating that user, so it answers for them: a tenant's objects are
 * asked about as the tenant the agent applies them as (docs/tenants.md#impersonation).
 */
export interface AccessQuestion {
  verb: AccessVerb;
  kind: Pick<ObjectRef, 'apiVersion' | 'kind'>;
  namespace: string;
  as?: string;
}

/** The answer; `resource` is the resource as RBAC names it, e.g. `deployments.apps`, `configmaps`. */
export type AccessAnswer =
  | { type: 'allowed'; resource: string; namespaced: boolean }
  | { type: 'denied'; resource: string; namespaced: boolean; reason?: string }
  | { type: 'unknown'; message: string };

export interface ReviewOptions {
  /** Reviews in flight at once. */
  concurrency: number;
  /** How long one review may take. */
  timeoutMs: number;
}

/** Returns the answer to each question, in order; never throws for one review's failure. */
export function reviewAccess(
  client: KubeClient,
  questions: readonly AccessQuestion[],
  opts: ReviewOptions,
): Promise<AccessAnswer[]> {
  return mapConcurrent(questions, opts.concurrency, (q) => reviewOne(client, q, opts.timeoutMs));
}

async function reviewOne(client: KubeClient, q: AccessQuestion, timeoutMs: number): Promise<AccessAnswer> {
  let info;
  try {
    info = await client.resourceOf(q.kind);
  } catch (error) {
    return { type: 'unknown', message: (error as Error).message };
  }
  if (!info)
    return { type: 'unknown', message: `the cluster serves no ${q.kind.kind} in ${q.kind.apiVersion}` };
  const group = groupOf(q.kind.apiVersion);
  const resource = group === '' ? info.resource : `${info.resource}.${group}`;
  const namespaced = info.namespaced;
  const body = {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: {
      resourceAttributes: {
        verb: q.verb,
        group,
        resource: info.resource,
        // A Namespace is authorized in itself (requests on /api/v1/namespaces/<name>).
        ...((namespaced || (group === '' && info.resource === 'namespaces')) && q.namespace !== ''
          ? { namespace: q.namespace }
          : {}),
      },
    },
  };
  let answer;
  try {
    answer = await client.send({
      method: 'POST',
      path: reviewPath,
      body: JSON.stringify(body),
      contentType: 'application/json',
      timeoutMs,
      ...(q.as ? { impersonate: q.as } : {}),
    });
  } catch (error) {
    return { type: 'unknown', message: (error as Error).message };
  }
  if (answer.status !== 200 && answer.status !== 201)
    return { type: 'unknown', message: `access review: HTTP ${answer.status}` };
  let status: { allowed?: boolean; reason?: string } | undefined;
  try {
    status = (JSON.parse(answer.body) as { status?: { allowed?: boolean; reason?: string } }).status;
  } catch {
    return { type: 'unknown', message: 'access review: the answer is not JSON' };
  }
  if (status?.allowed === true) return { type: 'allowed', resource, namespaced };
  return { type: 'denied', resource, namespaced, ...(status?.reason ? { reason: status.reason } : {}) };
}
