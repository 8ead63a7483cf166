// A watch on one kind across namespaces, with a label selector: the stream of changes the
// agent's drift correction listens to. One call is one watch request; the caller restarts it
// (from the last resourceVersion seen, or from a fresh list after `expired`).
import type { KubeObject } from '../../core/model/kube-object.js';
import type { ObjectRef } from '../../core/model/object-ref.js';
import { collectionPath } from './discovery.js';
import type { KubeClient } from './kube-client.js';
import { KubeApiError, refusalOf } from './kube-error.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
}

/** How a watch ended: the server closed it (restart from `resourceVersion`), or it is too old (list again). */
export type WatchEnd = { type: 'ended'; resourceVersion: string } | { type: 'expired' };

export interface WatchOptions {
  labelSelector?: string;
  /** Start after this version (from a list); events older than it are not sent. */
  resourceVersion: string;
  signal: AbortSignal;
  onEvent: (event: WatchEvent) => void;
  /** How long the server keeps the watch open (default 300 s). */
  timeoutSeconds?: number;
}

/** Watches a kind until the server ends the stream or the signal aborts; returns how it ended. */
export async function watchObjects(
  client: KubeClient,
  kind: Pick<ObjectRef, 'apiVersion' | 'kind'>,
  opts: WatchOptions,
): Promise<WatchEnd> {
  const info = await client.resourceOf(kind);
  if (!info)
    throw new KubeApiError(kind.kind, {
      code: 404,
      message: `no resource serves ${kind.apiVersion} ${kind.kind}`,
    });
  let resourceVersion = opts.resourceVersion;
  let expired = false;
  await client.http.stream(
    {
      method: 'GET',
      path: collectionPath(info),
      query: {
        watch: '1',
        allowWatchBookmarks: 'true',
        labelSelector: opts.labelSelector,
        resourceVersion,
        timeoutSeconds: String(opts.timeoutSeconds ?? 300),
      },
    },
    (line) => {
      const event = JSON.parse(line) as { type: string; object: KubeObject & { code?: number } };
      if (event.type === 'ERROR') {
        if (event.object.code === 410) expired = true;
        return;
      }
      const rv = event.object.metadata?.resourceVersion;
      if (typeof rv === 'string') resourceVersion = rv;
      if (event.type === 'BOOKMARK') return;
      opts.onEvent({
        type: event.type as WatchEventType,
        object: { ...event.object, apiVersion: kind.apiVersion, kind: kind.kind },
      });
    },
    opts.signal,
  );
  return expired ? { type: 'expired' } : { type: 'ended', resourceVersion };
}

/** Returns the current resourceVersion of a kind's collection (a one-item list), where a watch can start. */
export async function collectionVersion(
  client: KubeClient,
  kind: Pick<ObjectRef, 'apiVersion' | 'kind'>,
  labelSelector?: string,
): Promise<string> {
  const info = await client.resourceOf(kind);
  if (!info)
    throw new KubeApiError(kind.kind, {
      code: 404,
      message: `no resource serves ${kind.apiVersion} ${kind.kind}`,
    });
  const path = collectionPath(info);
  const answer = await client.send({ method: 'GET', path, query: { limit: '1', labelSelector } });
  if (answer.status !== 200) throw new KubeApiError(`GET ${path}`, refusalOf(answer.status, answer.body));
  return (
    (JSON.parse(answer.body) as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion ?? ''
  );
}
