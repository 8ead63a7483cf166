// The hub pass's phase timings (hub-pass-result.ts PassTimings): each phase adds the time since
// the previous mark, on the monotonic clock the pass is given.
import { Stopwatch } from '../runtime/stopwatch.js';
import { noTimings, type PassTimings } from './hub-pass-result.js';

/** The pass's phase timings, each phase adding the time since the previous mark. */
export class PassTimer {
  private readonly watch: Stopwatch;
  private readonly timings: PassTimings;

  constructor(elapsed?: () => number) {
    this.watch = new Stopwatch(elapsed);
    this.timings = noTimings();
  }

  mark(phase: Exclude<keyof PassTimings, 'totalMs'>): void {
    this.timings[phase] += this.watch.lap();
  }

  done(): PassTimings {
    this.watch.lap();
    return { ...this.timings, totalMs: this.watch.total() };
  }

  /** Returns the milliseconds since `done` (a step after the pass, timed on its own). */
  sinceDone(): number {
    return this.watch.lap();
  }
}
