// The notifier's record of what each receiver got (docs/notifications.md#what-was-sent), held in
// memory and written to the notifications branch (notify-cursor-ref.ts): read once, at the first
// pass; written at most once per flush interval after a position moved, and when asked (the hub
// stopping). A write another writer beat (a hub that led before) is read again and retried on top
// at the next interval: nothing settled is lost from the record.
import { readRef } from '../../adapters/git/read-ref.js';
import type { GitSignature } from '../../adapters/git/make-commit.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import type { NotifyCursor } from '../../core/notify/notify-cursor.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import { readNotifyCursor, writeNotifyCursor } from './notify-cursor-ref.js';

export interface NotifyCursorStoreOptions {
  repo: HubRepo;
  /** The notifications branch. */
  ref: string;
  clock: Clock;
  log: Logger;
  author: () => GitSignature;
  signer?: CommitSigner;
  /** The branch is written at most this often (default 30 s). */
  flushIntervalMs?: number;
}

/** The cursor of every receiver, and its writes to the notifications branch. */
export class NotifyCursorStore {
  /** Receiver → its positions; the router moves them in place. */
  cursor: NotifyCursor = {};
  private head: string | null = null;
  private loaded = false;
  private dirty = { delivered: 0, dropped: 0, moved: false };
  private flushAt: number | undefined;
  private cancelFlush = (): void => undefined;
  private closed = false;

  constructor(private readonly opts: NotifyCursorStoreOptions) {}

  /** Reads the branch the first time it is called. */
  async load(): Promise<void> {
    if (this.loaded) return;
    const recorded = await readNotifyCursor(this.opts.repo.gitdir, this.opts.ref);
    this.head = recorded.head;
    this.cursor = recorded.cursor;
    this.loaded = true;
  }

  /** Counts an event that reached an end for the next commit's message, and schedules a write. */
  settled(key: string, outcome: 'delivered' | 'givenUp' | 'dropped'): void {
    if (outcome === 'dropped') {
      const entry = this.cursor[key];
      if (entry) entry.dropped++;
      this.dirty.dropped++;
    } else this.dirty.delivered++;
    this.moved();
  }

  /** Schedules a write: a position moved. */
  moved(): void {
    this.dirty.moved = true;
    if (this.flushAt !== undefined || this.closed) return;
    const { clock } = this.opts;
    this.flushAt = clock.now() + (this.opts.flushIntervalMs ?? 30_000);
    this.cancelFlush = clock.setTimer(() => void this.flush(), this.flushAt - clock.now());
  }

  /** No more scheduled writes; a last flush() still writes. */
  close(): void {
    this.closed = true;
    this.cancelFlush();
  }

  /** Writes the branch now if a position moved since it was written. */
  async flush(): Promise<void> {
    this.cancelFlush();
    this.flushAt = undefined;
    if (!this.dirty.moved) return;
    const { delivered, dropped } = this.dirty;
    this.dirty = { delivered: 0, dropped: 0, moved: false };
    try {
      this.head = await writeNotifyCursor({
        repo: this.opts.repo,
        ref: this.opts.ref,
        head: this.head,
        cursor: this.cursor,
        delivered,
        dropped,
        author: this.opts.author(),
        ...(this.opts.signer ? { signer: this.opts.signer } : {}),
      });
    } catch (error) {
      // Another writer moved it (a hub that led before): ours is written on top at the next flush.
      this.head = await readRef(this.opts.repo.gitdir, this.opts.ref).catch(() => this.head);
      this.dirty.delivered += delivered;
      this.dirty.dropped += dropped;
      this.opts.log.warn(
        `notifications: ${this.opts.ref}: not written: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.moved();
    }
  }
}
