// Where loops report what happened. Errors are logged once, by the loop that handles them;
// the functions a loop calls return data or throw, and never log an error themselves.
// A line may carry fields besides its message (the cluster, the commit, the object, an error's
// code): the text format leaves them out (the message already names its subject first), the
// JSON format (`--log-format json`, cli/io-logger.ts) writes each as a key of its own.

import type { Logger } from '../../core/model/logger.js';

export type { LogFields, Logger } from '../../core/model/logger.js';

/**
 * How much a long-running command says (`--log-level`), least to most severe: `debug` adds what a
 * person chasing a problem wants (a pass that changed nothing, a trigger that fired), `info` (the
 * default) what changed, `warn` what may need a look, `error` what failed.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The levels in order, least severe first. */
export const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Returns whether a line of `level` is shown when the command runs at `threshold`. */
export function isShown(level: LogLevel, threshold: LogLevel): boolean {
  return logLevels.indexOf(level) >= logLevels.indexOf(threshold);
}

/** Returns a logger that drops everything (for callers that have nothing to say). */
export function silentLogger(): Logger {
  return { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
}
