// Drift correction's ears: one watch per kind the agent applied, across namespaces, on its
// ownership marker (gitfleet.io/cluster=<cluster>). An event only says "look again" (a pass,
// shortly after, re-reads and decides with a server dry-run); events caused by the agent's own
// writes (the resourceVersion its apply returned) are ignored. A watch that breaks is started
// again from a fresh list, with backoff, and then asks for a pass, since it may have missed
// something meanwhile.
import { clusterLabel } from '../../core/apply-plan/agent-keys.js';
import { kindKeyOf } from '../../core/apply-plan/plan-prune.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import type { ObjectRef } from '../../core/model/object-ref.js';
import type { ClusterApi } from './cluster-api.js';
import { keepWatching } from './keep-watching.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';

type KindRef = Pick<ObjectRef, 'apiVersion' | 'kind'>;

export interface DriftWatchOptions {
  client: ClusterApi;
  cluster: string;
  clock: Clock;
  /** Uniform in [0, 1), for the restart backoff's jitter. */
  random: () => number;
  log: Logger;
  /** Called when something the agent owns changed. */
  onChange: (reason: string) => void;
  /** Whether an event's object is the agent's own last write (then it is not a change). */
  isOwnWrite: (kind: KindRef, object: KubeObject) => boolean;
}

/** The set of running watches, one per kind. */
export class DriftWatcher {
  private readonly watches = new Map<string, AbortController>();

  constructor(private readonly opts: DriftWatchOptions) {}

  /** Watches exactly the given kinds: starts the new ones, stops the others. */
  sync(kinds: readonly KindRef[]): void {
    const wanted = new Map(kinds.map((k) => [kindKeyOf(k), k]));
    for (const [key, controller] of this.watches) {
      if (!wanted.has(key)) {
        controller.abort();
        this.watches.delete(key);
      }
    }
    for (const [key, kind] of wanted) {
      if (this.watches.has(key)) continue;
      const controller = new AbortController();
      this.watches.set(key, controller);
      void this.run(kind, controller.signal);
    }
  }

  /** Stops every watch. */
  stop(): void {
    for (const controller of this.watches.values()) controller.abort();
    this.watches.clear();
  }

  private run(kind: KindRef, signal: AbortSignal): Promise<void> {
    return keepWatching({
      ...this.opts,
      kind,
      labelSelector: `${clusterLabel}=${this.opts.cluster}`,
      what: kind.kind,
      signal,
      onEvent: (event) => {
        if (event.type !== 'DELETED' && this.opts.isOwnWrite(kind, event.object)) return;
        this.opts.onChange(
          `${kind.kind} ${event.object.metadata.namespace ?? ''}/${event.object.metadata.name} ${event.type.toLowerCase()}`,
        );
      },
      onRestart: () => this.opts.onChange(`the watch on ${kind.kind} restarted`),
    });
  }
}
