// The exporting side's ears (multi-cluster services): while the cluster branch exports any
// Service, one watch on the EndpointSlices labelled with a Service name, across namespaces. An
// event on a slice of an exported Service (and not one Karmada's import side manages) only says
// "look again"; the loop asks for a pass after the coalescing window, so a burst of endpoint
// changes (pods restarting) gives one pass and at most one status commit. A watch that breaks is
// started again from a fresh list, with backoff, and then asks for a pass, since it may have
// missed something meanwhile.
import { isManagedByKarmada, serviceNameLabel } from '../../core/status/exported-slices.js';
import type { ClusterApi } from './cluster-api.js';
import { endpointSliceKind, type ExportedService } from './collect-exports.js';
import { keepWatching } from './keep-watching.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';

export interface ExportWatchOptions {
  client: ClusterApi;
  clock: Clock;
  /** Uniform in [0, 1), for the restart backoff's jitter. */
  random: () => number;
  log: Logger;
  /** Called when a slice of an exported Service changed. */
  onChange: (reason: string) => void;
}

/** The watch on the exported Services' EndpointSlices, running while there are any. */
export class ExportWatcher {
  private services = new Set<string>();
  private running: AbortController | undefined;

  constructor(private readonly opts: ExportWatchOptions) {}

  /** Watches the slices of exactly these Services: starts the watch when there are some, stops it when none. */
  sync(services: readonly ExportedService[]): void {
    this.services = new Set(services.map(serviceKey));
    if (this.services.size === 0) this.stop();
    else if (!this.running) {
      this.running = new AbortController();
      void this.run(this.running.signal);
    }
  }

  /** Stops the watch. */
  stop(): void {
    this.running?.abort();
    this.running = undefined;
  }

  private run(signal: AbortSignal): Promise<void> {
    return keepWatching({
      ...this.opts,
      kind: endpointSliceKind,
      labelSelector: serviceNameLabel,
      what: 'EndpointSlices',
      signal,
      onEvent: ({ type, object }) => {
        const service = object.metadata.labels?.[serviceNameLabel] ?? '';
        const key = serviceKey({ namespace: object.metadata.namespace ?? '', name: service });
        if (!this.services.has(key) || isManagedByKarmada(object)) return;
        this.opts.onChange(
          `EndpointSlice ${object.metadata.namespace ?? ''}/${object.metadata.name} ${type.toLowerCase()}`,
        );
      },
      onRestart: () => this.opts.onChange('the watch on EndpointSlices restarted'),
    });
  }
}

function serviceKey(s: ExportedService): string {
  return `${s.namespace}/${s.name}`;
}
