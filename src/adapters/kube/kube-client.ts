// The agent's client of one member cluster: server-side apply under one field manager, get,
// list, delete and merge patch, by object identity, with discovery resolving kinds to resources.
// Per-object writes return the API server's refusal as data (the agent classifies it);
// reads throw KubeApiError.
import type { KubeConfig } from '@kubernetes/client-node';
import type { ApiRefusal } from '../../core/model/api-refusal.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import { refLabel, type ObjectRef } from '../../core/model/object-ref.js';
import { collectionPath, Discovery, objectPath, type ResourceInfo } from './discovery.js';
import { KubeApiError, refusalOf } from './kube-error.js';
import { KubeHttp, type KubeHttpOptions, type RequestCounts } from './kube-http.js';

export type WriteResult = { type: 'ok'; live: KubeObject } | { type: 'refused'; refusal: ApiRefusal };

export interface ApplyOptions {
  /** Take the fields the manifest sets from any other manager (SSA force). */
  force: boolean;
  /** Ask the server what it would store, storing nothing. */
  dryRun?: boolean;
  /**
   * Apply as this user (impersonation), e.g. a tenant's `system:serviceaccount:NS:NAME`: the
   * API server then checks that user's RBAC, and refuses what it may not do (docs/tenants.md#impersonation).
   */
  as?: string;
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** Only this namespace (namespaced resources); all namespaces when absent. */
  namespace?: string;
  /**
   * Ask for metadata only (PartialObjectMetadataList): existence, labels, annotations, owners,
   * finalizers, resourceVersion.
   */
  metadataOnly?: boolean;
}

export interface ListResult {
  items: KubeObject[];
  /** The collection's resourceVersion, where a watch can start without missing anything. */
  resourceVersion: string;
}

const applyPatch = 'application/apply-patch+yaml';
// An apply patch is checked against the kind's schema whatever fieldValidation says: a field
// the schema does not declare fails the apply ("field not declared in schema", 422/400), which
// the agent reports on the object. What Warn (the server's default) and Strict add on top is a
// second, strict YAML parse of the body to find duplicate keys (apiserver handlers/patch.go,
// applyPatcher); a body from JSON.stringify has none, so Ignore drops only that parse (about
// 4.5 % of the API server's CPU per apply, docs/performance-agent.md).
const applyFieldValidation = 'Ignore';
const metadataAccept =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;q=0.9';
// Full objects can be large (a ConfigMap up to 1 MiB), so their pages stay at 500 as kubectl's; an
// item's metadata is about 0.5 KB, so metadata-only lists take 2,000 a page: a quarter of the round trips.
const pageSize = 500;
const metadataPageSize = 2000;

/** A member cluster as the agent uses it. */
export class KubeClient {
  readonly discovery: Discovery;

  constructor(
    readonly http: KubeHttp,
    readonly fieldManager = 'gitfleet',
  ) {
    this.discovery = new Discovery(http);
  }

  /** Returns a client for the kubeconfig's current context. */
  static fromKubeConfig(
    kc: KubeConfig,
    opts: { fieldManager?: string; bearerToken?: () => string } & KubeHttpOptions = {},
  ): KubeClient {
    return new KubeClient(new KubeHttp(kc, opts), opts.fieldManager);
  }

  /** Returns the requests made since the last reset. */
  requestCounts(): RequestCounts {
    return this.http.requestCounts();
  }

  /** Returns the resource serving an object's kind, or undefined. */
  resourceOf(ref: Pick<ObjectRef, 'apiVersion' | 'kind'>): Promise<ResourceInfo | undefined> {
    return this.discovery.resourceFor(ref.apiVersion, ref.kind);
  }

  /**
   * Server-side applies the manifest exactly as given; returns the stored (or dry-run) object,
   * without managedFields, or the refusal.
   */
  async apply(manifest: KubeObject, opts: ApplyOptions): Promise<WriteResult> {
    const info = await this.resourceOf(manifest);
    if (!info) return notServed(manifest);
    const answer = await this.sendWrite({
      method: 'PATCH',
      path: objectPath(info, namespaceOf(manifest, info), manifest.metadata.name),
      query: {
        fieldManager: this.fieldManager,
        fieldValidation: applyFieldValidation,
        ...(opts.force ? { force: 'true' } : {}),
        ...(opts.dryRun ? { dryRun: 'All' } : {}),
      },
      body: JSON.stringify(manifest),
      contentType: applyPatch,
      ...(opts.as ? { impersonate: opts.as } : {}),
    });
    return 'refusal' in answer ? { type: 'refused', refusal: answer.refusal } : writeResult(answer);
  }

  /** Merge-patches an object (e.g. to remove a label); returns the stored object (without managedFields) or the refusal. */
  async mergePatch(ref: ObjectRef, patch: unknown): Promise<WriteResult> {
    const info = await this.resourceOf(ref);
    if (!info) return notServed(ref);
    const answer = await this.sendWrite({
      method: 'PATCH',
      path: objectPath(info, ref.namespace, ref.name),
      query: { fieldManager: this.fieldManager },
      body: JSON.stringify(patch),
      contentType: 'application/merge-patch+json',
    });
    return 'refusal' in answer ? { type: 'refused', refusal: answer.refusal } : writeResult(answer);
  }

  /**
   * Deletes an object with background propagation; returns 'deleted' (with the object as the
   * server answered it when it is still there, e.g. held by a finalizer: deletionTimestamp
   * set), 'gone' (it was not there) or the refusal. `as`: delete as this user (impersonation),
   * as the object was applied (docs/tenants.md#impersonation).
   */
  async delete(
    ref: ObjectRef,
    opts: { as?: string } = {},
  ): Promise<
    { type: 'deleted'; live?: KubeObject } | { type: 'gone' } | { type: 'refused'; refusal: ApiRefusal }
  > {
    const info = await this.resourceOf(ref);
    if (!info) return notServed(ref);
    const answer = await this.sendWrite({
      method: 'DELETE',
      path: objectPath(info, ref.namespace, ref.name),
      body: JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' }),
      contentType: 'application/json',
      ...(opts.as ? { impersonate: opts.as } : {}),
    });
    if ('refusal' in answer) return { type: 'refused', refusal: answer.refusal };
    if (answer.status === 404) return { type: 'gone' };
    if (answer.status >= 200 && answer.status < 300) {
      const body = parseObject(answer.body);
      return body?.metadata?.deletionTimestamp ? { type: 'deleted', live: body } : { type: 'deleted' };
    }
    return { type: 'refused', refusal: refusalOf(answer.status, answer.body) };
  }

  /** Returns the live object, or undefined when it does not exist; throws when it cannot be read. */
  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    const info = await this.resourceOf(ref);
    if (!info)
      throw new KubeApiError(refLabel(ref), {
        code: 404,
        message: `no resource serves ${ref.apiVersion} ${ref.kind}`,
      });
    const path = objectPath(info, ref.namespace, ref.name);
    const answer = await this.send({ method: 'GET', path });
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw new KubeApiError(`GET ${path}`, refusalOf(answer.status, answer.body));
    return JSON.parse(answer.body) as KubeObject;
  }

  /**
   * Lists the objects of a kind (every page); each item gets its apiVersion and kind and loses
   * its managedFields as each page is read (most of a small item's size, and no reader of a list
   * looks at them).
   */
  async list(kind: Pick<ObjectRef, 'apiVersion' | 'kind'>, opts: ListOptions = {}): Promise<ListResult> {
    const info = await this.resourceOf(kind);
    if (!info)
      throw new KubeApiError(`${kind.kind}`, {
        code: 404,
        message: `no resource serves ${kind.apiVersion} ${kind.kind}`,
      });
    const path = collectionPath(info, opts.namespace);
    const items: KubeObject[] = [];
    let next: string | undefined;
    let resourceVersion = '';
    do {
      const answer = await this.send({
        method: 'GET',
        path,
        query: {
          labelSelector: opts.labelSelector,
          fieldSelector: opts.fieldSelector,
          limit: String(opts.metadataOnly ? metadataPageSize : pageSize),
          continue: next,
        },
        ...(opts.metadataOnly ? { accept: metadataAccept } : {}),
      });
      if (answer.status !== 200) throw new KubeApiError(`GET ${path}`, refusalOf(answer.status, answer.body));
      const page = JSON.parse(answer.body) as {
        items?: KubeObject[];
        metadata?: { continue?: string; resourceVersion?: string };
      };
      // The parsed answer is ours alone: each item gets its kind in place, not as a copy.
      for (const item of page.items ?? []) {
        item.apiVersion = kind.apiVersion;
        item.kind = kind.kind;
        delete item.metadata['managedFields'];
        items.push(item);
      }
      next = page.metadata?.continue || undefined;
      resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
    } while (next);
    return { items, resourceVersion };
  }

  /** Returns the answer to a raw request (for reads the client has no verb for, e.g. /version). */
  send(req: Parameters<KubeHttp['request']>[0]): Promise<{ status: number; body: string }> {
    return this.http.request(req);
  }

  /** Sends a write; no answer at all becomes a refusal with code 0, as data like any other. */
  private async sendWrite(
    req: Parameters<KubeHttp['request']>[0],
  ): Promise<{ status: number; body: string } | { refusal: ApiRefusal }> {
    try {
      return await this.http.request(req);
    } catch (error) {
      if (error instanceof KubeApiError) return { refusal: error.refusal };
      throw error;
    }
  }

  /** Closes idle connections. */
  close(): void {
    this.http.close();
  }
}

/** Returns the answer's object, undefined when it is a Status or not JSON. */
function parseObject(body: string): KubeObject | undefined {
  try {
    const parsed = JSON.parse(body) as Partial<KubeObject> | null;
    return parsed && parsed.kind !== 'Status' && parsed.metadata ? (parsed as KubeObject) : undefined;
  } catch {
    return undefined;
  }
}

function namespaceOf(manifest: KubeObject, info: ResourceInfo): string {
  return info.namespaced ? (manifest.metadata.namespace ?? 'default') : '';
}

// The stored object of a write, without managedFields: most of a small object's answer, and no
// reader of a write's answer looks at them (who owns which field is the server's to settle; the
// drift check leaves them out, has-drifted.ts). The pass keeps each answer until its report.
function writeResult(answer: { status: number; body: string }): WriteResult {
  if (answer.status >= 200 && answer.status < 300) {
    const live = JSON.parse(answer.body) as KubeObject;
    if (live.metadata) delete live.metadata['managedFields'];
    return { type: 'ok', live };
  }
  return { type: 'refused', refusal: refusalOf(answer.status, answer.body) };
}

function notServed(ref: Pick<ObjectRef, 'apiVersion' | 'kind'>): { type: 'refused'; refusal: ApiRefusal } {
  return {
    type: 'refused',
    refusal: {
      code: 404,
      reason: 'NotFound',
      message: `the cluster serves no ${ref.kind} in ${ref.apiVersion}`,
    },
  };
}
