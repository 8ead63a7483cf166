// Progress of a long step for a person at a terminal: `agent member1: applied 3,000 of 10,000
// objects`, at most one line every few seconds, and only once the step has run that long, so
// a pass that is quick (every pass after the first, mostly) prints nothing. Nothing at all when
// stderr is not a terminal or the logs are JSON: a log collector wants events, not a meter.
import type { Clock } from '../loops/runtime/clock.js';
import type { Progress } from '../loops/runtime/progress.js';
import type { LogFormat } from './io-logger.js';
import type { Io } from './io.js';

export interface TerminalProgressOptions {
  io: Io;
  clock: Pick<Clock, 'now'>;
  logFormat: LogFormat;
  /** e.g. `agent member1: applied` (the line goes on: ` 3,000 of 10,000 objects`). */
  what: string;
  noun: string;
  /** Time between two lines, and before the first (default 3 s). */
  everyMs?: number;
}

/** Returns the progress of a step as terminal lines, or undefined when nothing would be shown. */
export function terminalProgress(opts: TerminalProgressOptions): Progress | undefined {
  if (opts.logFormat === 'json' || opts.io.isTerminal?.() !== true) return undefined;
  const every = opts.everyMs ?? 3000;
  let started = 0;
  let lastLine: number | undefined;
  let shown = false;
  const line = (done: number, total: number): void =>
    opts.io.err(`${opts.what} ${count(done)} of ${count(total)} ${opts.noun}`);
  return (done, total) => {
    const now = opts.clock.now();
    // The first unit starts a step (one pass's apply) and its clock.
    if (done === 1) {
      started = now;
      lastLine = undefined;
      shown = false;
    }
    // The last one ends it, with a line when the step showed any before.
    if (done === total) {
      if (shown) line(done, total);
      shown = false;
      return;
    }
    if (now - (lastLine ?? started) < every) return;
    line(done, total);
    lastLine = now;
    shown = true;
  };
}

/** Returns `n` with thousands separated by commas (10,000). */
function count(n: number): string {
  return n.toLocaleString('en-US');
}
