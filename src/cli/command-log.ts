// The log of a long-running command that has no --log-format (ui, render --watch, status
// --watch): its logger (stderr, stamped, levelled: io-logger.ts) and how it prints a result it
// reports as it goes (a re-render), stamped with the time on its first line, below --log-level
// not at all.
import type { Clock } from '../loops/runtime/clock.js';
import { isShown, type Logger, type LogLevel } from '../loops/runtime/logger.js';
import { formatLogTime, ioLogger } from './io-logger.js';
import type { Io } from './io.js';

/** What a long-running command prints as it goes. */
export interface CommandLog {
  log: Logger;
  /** Prints a result at `level`: stdout, or stderr when it `failed`; stamped on its first line. */
  report(text: string, opts: { level: LogLevel; failed?: boolean }): void;
}

/** Returns the log of a long-running command speaking as `speaker` (`gitfleet ui`). */
export function commandLog(
  io: Io,
  speaker: string,
  opts: { level?: LogLevel; clock?: Pick<Clock, 'now'> } = {},
): CommandLog {
  const level = opts.level ?? 'info';
  const now = opts.clock ? () => opts.clock!.now() : () => Date.now();
  return {
    log: ioLogger(io, speaker, { level, ...(opts.clock ? { clock: opts.clock } : {}) }),
    report: (text, at) => {
      if (isShown(at.level, level)) (at.failed ? io.err : io.out)(`${formatLogTime(now())} ${text}`);
    },
  };
}
