// Before a pass writes anything: may the agent's credentials do what the pass needs? One
// access review (adapters/kube/access-review.ts) per verb, kind and namespace, each asked once
// per pass, so an object RBAC does not allow is refused by name, with the verb, resource and
// namespace, and the rest is applied; nothing is left half done without a word in the status.
//
// | the pass needs to             | verbs                           |
// |-------------------------------|---------------------------------|
// | read and apply a desired object | get, list, watch, create, patch (server-side apply is a patch that may create) |
// | prune an object that left the branch | get, list, delete        |
//
// Asked in two rounds, so an agent with a ClusterRole costs one review per verb and kind: first
// across namespaces; then, only for a namespaced kind denied there (a tenant agent bound by
// RoleBindings), in each namespace the pass touches. A Namespace object is asked about in
// itself, as the API server authorizes a request on /api/v1/namespaces/<name> (a RoleBinding
// in a namespace covers that namespace's own object). A kind the agent may list only namespace
// by namespace is listed that way (live-index.ts). A review that gets no answer, or a kind not
// served yet (its CRD comes in this pass), decides nothing: the write is sent, and a Forbidden
// the check did not foresee is reported on the object all the same (handle-refusal.ts). An object
// the agent applies as its tenant (gitfleet.io/apply-as) is asked about as that tenant: the
// review is sent impersonating it, so a kind the tenant may not write is refused by name before
// any write, naming the tenant. Reads (get, list, watch) stay the agent's own, as its reads are.
// Prune's deletion of a tenant's object is asked about as the tenant too, once the live object
// says whom it was applied as (reviewDeletesAs, called by prune-objects.ts before it deletes).
import { applyIdentityOf } from '../../core/apply-plan/apply-identity.js';
import { kindKeyOf } from '../../core/apply-plan/plan-prune.js';
import { refKey, refLabel, type ObjectRef } from '../../core/model/object-ref.js';
import type { AccessAnswer, AccessQuestion, ClusterApi } from './cluster-api.js';
import type { ObjectResult } from './object-result.js';
import type { DesiredObject } from './read-cluster-branch.js';

type Verb = AccessQuestion['verb'];

const applyVerbs: readonly Verb[] = ['get', 'list', 'watch', 'create', 'patch'];
// Prune reads what it may delete (is it still there, still ours?) before deleting it.
const pruneVerbs: readonly Verb[] = ['get', 'list', 'delete'];

/** What the pass may do. */
export interface Permissions {
  /** The desired objects to apply. */
  allowed: DesiredObject[];
  /** The desired objects refused before any write, as failed results naming what is denied. */
  refused: ObjectResult[];
  /** refKey → why prune may not delete the object (it stays in the inventory). */
  undeletable: Map<string, string>;
  /** group/Kind → the namespaces to list one by one (the kind may not be listed across namespaces). */
  listScope: Map<string, string[]>;
}

/** Returns what the pass may apply and delete; without reviews from the cluster, everything. */
export async function checkPermissions(
  client: ClusterApi,
  objects: readonly DesiredObject[],
  leaving: readonly ObjectRef[],
): Promise<Permissions> {
  const permissions: Permissions = {
    allowed: [...objects],
    refused: [],
    undeletable: new Map(),
    listScope: new Map(),
  };
  if (!client.reviewAccess || objects.length + leaving.length === 0) return permissions;
  // The answers depend on the kind and the namespace only: ask and judge once per scope, not per object.
  const applyScopes = byScope(objects.map((o) => ({ ref: o.ref, as: applyIdentityOf(o.manifest) })));
  const pruneScopes = byScope(leaving.map((ref) => ({ ref, as: undefined })));
  const needs = [
    ...[...applyScopes.values()].map((scope) => ({ ...scope, verbs: applyVerbs })),
    ...[...pruneScopes.values()].map((scope) => ({ ...scope, verbs: pruneVerbs })),
  ];
  const answers = await askInTwoRounds(client, needs);
  const applyDenied = judgeScopes(answers, applyScopes, applyVerbs);
  const pruneDenied = judgeScopes(answers, pruneScopes, pruneVerbs);
  permissions.allowed = [];
  for (const o of objects) {
    const denied = applyDenied.get(scopeKey(o.ref, applyIdentityOf(o.manifest)));
    if (denied === undefined) permissions.allowed.push(o);
    else
      permissions.refused.push({
        ref: o.ref,
        path: o.path,
        digest: o.digest,
        action: 'failed',
        applied: false,
        // RBAC may be granted before the next pass.
        retryable: true,
        message: denied,
      });
  }
  for (const ref of leaving) {
    const denied = pruneDenied.get(scopeKey(ref, undefined));
    if (denied !== undefined) permissions.undeletable.set(refKey(ref), `${refLabel(ref)}: ${denied}`);
  }
  for (const { ref } of needs) {
    const namespace = authorizedIn(ref);
    if (namespace === '' || !isDenied(answers.get(question('list', ref, '')))) continue;
    if (isDenied(answers.get(question('list', ref, namespace)))) continue;
    const key = kindKeyOf(ref);
    const namespaces = permissions.listScope.get(key) ?? [];
    if (!namespaces.includes(namespace)) namespaces.push(namespace);
    permissions.listScope.set(key, namespaces);
  }
  return permissions;
}

/**
 * Returns, by refKey, why a tenant may not delete its objects, asked as the user each is deleted
 * as (prune-objects.ts: the live object's gitfleet.io/apply-as); absent where the review allows it
 * or cannot tell (then the deletion itself tells).
 */
export async function reviewDeletesAs(
  client: ClusterApi,
  items: readonly { ref: ObjectRef; as: string }[],
): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  if (!client.reviewAccess || items.length === 0) return refused;
  const scopes = byScope(items);
  const answers = await askInTwoRounds(
    client,
    [...scopes.values()].map((scope) => ({ ...scope, verbs: ['delete'] as const })),
  );
  const denied = judgeScopes(answers, scopes, ['delete']);
  for (const { ref, as } of items) {
    const message = denied.get(scopeKey(ref, as));
    if (message !== undefined) refused.set(refKey(ref), `${refLabel(ref)}: ${message}`);
  }
  return refused;
}

// Across namespaces first; then, for a namespaced kind denied there, in the namespace itself.
async function askInTwoRounds(
  client: ClusterApi,
  needs: readonly (Scope & { verbs: readonly Verb[] })[],
): Promise<AnswerCache> {
  const answers = new AnswerCache(client);
  await answers.ask(needs.flatMap(({ ref, as, verbs }) => verbs.map((verb) => question(verb, ref, '', as))));
  await answers.ask(
    needs.flatMap(({ ref, as, verbs }) =>
      verbs
        .filter((verb) => authorizedIn(ref) !== '' && isDenied(answers.get(question(verb, ref, '', as))))
        .map((verb) => question(verb, ref, authorizedIn(ref), as)),
    ),
  );
  return answers;
}

/** Returns what decides an object's answers (its kind, where it is authorized, its namespace, whom it is written as) as one key. */
function scopeKey(ref: ObjectRef, as: string | undefined): string {
  return `${kindKeyOf(ref)}\0${authorizedIn(ref)}\0${ref.namespace}\0${as ?? ''}`;
}

interface Scope {
  ref: ObjectRef;
  /** The user the object is written as (its tenant), or undefined for the agent itself. */
  as: string | undefined;
}

/** Returns one object of each scope the given objects are in, by scope key. */
function byScope(items: readonly Scope[]): Map<string, Scope> {
  const scopes = new Map<string, Scope>();
  for (const item of items) {
    const key = scopeKey(item.ref, item.as);
    if (!scopes.has(key)) scopes.set(key, item);
  }
  return scopes;
}

/** Returns, by scope key, the message naming what is denied there (scopes where all is allowed are absent). */
function judgeScopes(
  answers: AnswerCache,
  scopes: ReadonlyMap<string, Scope>,
  verbs: readonly Verb[],
): Map<string, string> {
  const denied = new Map<string, string>();
  for (const [key, { ref, as }] of scopes) {
    const message = deniedVerbs(answers, ref, verbs, as);
    if (message !== undefined) denied.set(key, message);
  }
  return denied;
}

/** Returns the message naming what the agent may not do to an object, or undefined when it may do all of it. */
function deniedVerbs(
  answers: AnswerCache,
  ref: ObjectRef,
  verbs: readonly Verb[],
  as: string | undefined,
): string | undefined {
  const denied: { verb: Verb; answer: Extract<AccessAnswer, { type: 'denied' }> }[] = [];
  for (const verb of verbs) {
    const wide = answers.get(question(verb, ref, '', as));
    if (!isDenied(wide)) continue;
    const here = authorizedIn(ref) !== '' ? answers.get(question(verb, ref, authorizedIn(ref), as)) : wide;
    if (isDenied(here)) denied.push({ verb, answer: here });
  }
  const first = denied[0]?.answer;
  if (!first) return undefined;
  const where = first.namespaced ? `in namespace ${ref.namespace}` : '(cluster-scoped)';
  const reasons = [...new Set(denied.map((d) => d.answer.reason).filter((r) => r !== undefined))];
  const asTenant = as !== undefined && denied.every((d) => writeVerbs.has(d.verb));
  const what = `${denied.map((d) => d.verb).join(', ')} ${first.resource} ${where}${reasons.length ? `: ${reasons.join('; ')}` : ''}`;
  return asTenant
    ? `forbidden: ${as}, whom the agent applies it as, may not ${what}`
    : `forbidden: the agent's credentials may not ${what}`;
}

/** Returns the namespace a request on the object is authorized in: its own, a Namespace's name, or '' (cluster-scoped). */
function authorizedIn(ref: ObjectRef): string {
  return isNamespace(ref) ? ref.name : ref.namespace;
}

function isNamespace(ref: Pick<ObjectRef, 'apiVersion' | 'kind'>): boolean {
  return ref.apiVersion === 'v1' && ref.kind === 'Namespace';
}

function isDenied(answer: AccessAnswer | undefined): answer is Extract<AccessAnswer, { type: 'denied' }> {
  return answer?.type === 'denied';
}

// Writes are made as the tenant, reads as the agent itself (docs/tenants.md#impersonation): a
// question about a write is asked as the user the object is written as.
function question(verb: Verb, ref: ObjectRef, namespace: string, as?: string): AccessQuestion {
  const kind = { apiVersion: ref.apiVersion, kind: ref.kind };
  return { verb, kind, namespace, ...(as && writeVerbs.has(verb) ? { as } : {}) };
}

const writeVerbs: ReadonlySet<Verb> = new Set(['create', 'patch', 'delete']);

/** Each distinct question asked once; the answers kept for the pass. */
class AnswerCache {
  private readonly answers = new Map<string, AccessAnswer>();

  constructor(private readonly client: ClusterApi) {}

  async ask(questions: readonly AccessQuestion[]): Promise<void> {
    const fresh = new Map<string, AccessQuestion>();
    for (const q of questions) {
      const key = keyOf(q);
      if (!this.answers.has(key)) fresh.set(key, q);
    }
    if (fresh.size === 0) return;
    const got = await this.client.reviewAccess!([...fresh.values()]);
    [...fresh.keys()].forEach((key, i) =>
      this.answers.set(key, got[i] ?? { type: 'unknown', message: 'no answer' }),
    );
  }

  get(q: AccessQuestion): AccessAnswer | undefined {
    return this.answers.get(keyOf(q));
  }
}

function keyOf(q: AccessQuestion): string {
  return `${q.verb} ${kindKeyOf(q.kind)} ${q.namespace} ${q.as ?? ''}`;
}
