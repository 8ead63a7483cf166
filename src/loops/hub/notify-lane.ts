// One receiver's lane of the notifier (docs/notifications.md#delivery): its backlog, in order, and
// the loop that delivers it one event at a time, apart from every other receiver and from the hub's
// passes. A failed attempt waits (exponential back-off with jitter, or the delay the receiver asked
// for) and tries the same event again, so the order holds; an event refused for good (a redirect,
// a 4xx) is given up and the next one sent. The backlog is bounded: when full, the oldest events are
// dropped and counted. Every event that reaches an end (delivered, given up, dropped) is told to
// `settled`, which moves the receiver's cursor.
import { backoffDelay, type BackoffSettings } from '../runtime/backoff.js';
import type { CancelTimer, Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics, NotificationReport } from '../runtime/metrics.js';
import type { FleetEvent } from '../../core/notify/fleet-event.js';
import type { NotificationReceiver } from '../../core/notify/notification-receiver.js';

/** An event waiting for a receiver, with the stream it comes from. */
export interface QueuedEvent {
  stream: string;
  event: FleetEvent;
}

export interface NotifyLaneOptions {
  receiver: NotificationReceiver;
  clock: Clock;
  backoff: BackoffSettings;
  log: Logger;
  metrics?: Metrics;
  /** The most events waiting (default 1,000). */
  maxBacklog?: number;
  /** Told of each event that reached an end, in order. */
  settled: (item: QueuedEvent, outcome: 'delivered' | 'givenUp' | 'dropped') => void;
}

/** One receiver's backlog and delivery loop. */
export class NotifyLane {
  private readonly queue: QueuedEvent[] = [];
  private stopped = false;
  /** Never aborted: a delivery is bounded by its receiver's own deadline. */
  private readonly never = new AbortController().signal;
  private running: Promise<void> | undefined;
  private failures = 0;
  private cancelWait: CancelTimer = () => undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly opts: NotifyLaneOptions) {}

  /** Events waiting now. */
  get backlog(): number {
    return this.queue.length;
  }

  /** Adds events at the end; drops the oldest beyond the bound; starts delivering. */
  push(items: readonly QueuedEvent[]): void {
    if (this.stopped || items.length === 0) return;
    this.queue.push(...items);
    const max = this.opts.maxBacklog ?? 1000;
    // The event being delivered (the head, while running) stays: it may be on its way already.
    const keep = this.running ? 1 : 0;
    const over = this.queue.length - max;
    if (over > 0) {
      const dropped = this.queue.splice(keep, over);
      for (const item of dropped) this.opts.settled(item, 'dropped');
      this.opts.log.warn(
        `notifications: ${this.opts.receiver.key}: backlog full (${max}): ${dropped.length} oldest event(s) dropped`,
      );
      this.report('dropped', dropped.length);
    }
    this.kick();
  }

  private kick(): void {
    if (this.running || this.stopped) return;
    this.running = this.run().finally(() => {
      this.running = undefined;
      // Pushed while the loop was ending: start again.
      if (this.queue.length > 0) this.kick();
    });
  }

  /** Resolves once the backlog is delivered (or the lane stopped); a receiver that is down keeps it waiting. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Stops: nothing new is sent, a back-off wait ends, and the delivery in flight finishes (within
   * its receiver's deadline), so what it delivered is settled and recorded, not sent again later.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelWait();
    this.wake?.();
    await this.running;
  }

  private async run(): Promise<void> {
    const { receiver } = this.opts;
    while (this.queue.length > 0 && !this.stopped) {
      const item = this.queue[0]!;
      const outcome = await receiver.deliver(item.event, this.never);
      if (outcome.type === 'delivered' || outcome.terminal) {
        this.queue.shift();
        if (outcome.type === 'delivered') {
          if (this.failures > 0) this.opts.log.info(`notifications: ${receiver.key}: delivering again`);
          this.failures = 0;
          this.report('delivered', 1);
          this.opts.settled(item, 'delivered');
        } else {
          this.opts.log.warn(
            `notifications: ${receiver.key}: event ${item.event.id} given up: ${outcome.reason}`,
          );
          this.report('givenUp', 1);
          this.opts.settled(item, 'givenUp');
        }
        continue;
      }
      this.failures++;
      this.report('failed', 1);
      const delay = Math.max(backoffDelay(this.failures, this.opts.backoff), outcome.retryAfterMs ?? 0);
      // The first failure of a run of them is a warning; the others are for debugging.
      const line = `notifications: ${receiver.key}: ${outcome.reason}; trying again in ${Math.round(delay / 1000)} s (${this.queue.length} waiting)`;
      if (this.failures === 1) this.opts.log.warn(line);
      else this.opts.log.debug?.(line);
      await this.sleep(delay);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopped) return resolve();
      this.wake = resolve;
      this.cancelWait = this.opts.clock.setTimer(resolve, ms);
    });
  }

  private report(outcome: NotificationReport['outcome'], count: number): void {
    this.opts.metrics?.notification?.({
      receiver: this.opts.receiver.key,
      outcome,
      count,
      backlog: this.queue.length,
    });
  }
}
