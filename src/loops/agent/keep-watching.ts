// One kind watched for as long as a signal allows, the way both of the agent's watchers need it:
// list for a version, watch from it, follow the server's ends (an expired version lists again),
// and after a failure start again from a fresh list with jittered backoff on the loop's clock,
// saying once that it broke and, once it is back, that it restarted (it may have missed events).
import type { WatchEvent } from '../../adapters/kube/watch-objects.js';
import type { ClusterApi, KindRef } from './cluster-api.js';
import { backoffDelay, defaultBackoff } from '../runtime/backoff.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';

export interface KeepWatchingOptions {
  client: ClusterApi;
  clock: Clock;
  /** Uniform in [0, 1), for the restart backoff's jitter. */
  random: () => number;
  log: Logger;
  kind: KindRef;
  labelSelector: string;
  /** What the messages call the watch (`EndpointSlices`, `Deployment`). */
  what: string;
  signal: AbortSignal;
  onEvent: (event: WatchEvent) => void;
  /** Called when the watch is running again after a failure. */
  onRestart: () => void;
}

/** Watches until the signal aborts, restarting after failures. */
export async function keepWatching(opts: KeepWatchingOptions): Promise<void> {
  const { client, kind, labelSelector, signal } = opts;
  let resourceVersion: string | undefined;
  let failures = 0;
  while (!signal.aborted) {
    try {
      if (resourceVersion === undefined) {
        resourceVersion = await client.collectionVersion(kind, { labelSelector });
        if (failures > 0) opts.onRestart();
      }
      const end = await client.watch(kind, { labelSelector, resourceVersion, signal, onEvent: opts.onEvent });
      resourceVersion = end.type === 'expired' ? undefined : end.resourceVersion;
      failures = 0;
    } catch (error) {
      if (signal.aborted) return;
      failures++;
      resourceVersion = undefined;
      const delay = backoffDelay(failures, defaultBackoff(opts.random));
      if (failures === 1) opts.log.warn(`watch on ${opts.what}: ${(error as Error).message}; retrying`);
      await new Promise<void>((resolve) => opts.clock.setTimer(resolve, delay));
    }
  }
}
