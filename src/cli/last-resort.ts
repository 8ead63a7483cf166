// The process's last resort: an exception no callback caught, or a rejection nothing awaited,
// would otherwise end the process with Node's bare trace (or, before, silently) and the exit code
// 1 that means "the command failed". Here it is logged through the command's logger (hub and
// agent register theirs, so with --log-format json it is one JSON line like every other), the
// subject first and then the stack, and the process exits `crashed` (exit-codes.ts): a bug,
// never an outcome of the fleet. Only the CLI's entry (runMain) installs it; tests running
// main() in-process do not get process handlers.
import type { Logger } from '../loops/runtime/logger.js';
import { exitCodes } from './exit-codes.js';

let current: Logger | undefined;

/** Makes `log` the logger the last-resort handler reports through (the command's own). */
export function setLastResortLogger(log: Logger): void {
  current = log;
}

export interface LastResortOptions {
  /** The command running (`hub`, `agent`, …), the subject of the line. */
  command: string;
  /** The logger until a command registers its own. */
  fallback: Logger;
  /** Ends the process (default process.exit). */
  exit?: (code: number) => void;
  /**
   * With --log-format json: Node's process warnings (MaxListenersExceededWarning, a
   * deprecation) become warning records of the logger instead of Node's own text on stderr,
   * which would break a log collector reading one JSON object a line.
   */
  json?: boolean;
}

/** Installs the uncaughtException and unhandledRejection handlers; returns how to remove them. */
export function installLastResort(opts: LastResortOptions): () => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const handle =
    (what: string) =>
    (error: unknown): void => {
      const line = describeCrash(opts.command, what, error);
      try {
        (current ?? opts.fallback).error(line, { code: 'Crashed' });
      } catch {
        // The logger itself failed (stderr closed): the exit code still says it.
      }
      exit(exitCodes.crashed);
    };
  const onException = handle('uncaught exception');
  const onRejection = handle('unhandled promise rejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  const printers = opts.json ? process.listeners('warning') : [];
  const onWarning = (warning: Error): void => {
    (current ?? opts.fallback).warn(`gitfleet ${opts.command}: ${warning.name}: ${warning.message}`, {
      code: warning.name,
    });
  };
  // Node's printer of warnings is a 'warning' listener of its own: replaced, not joined.
  for (const printer of printers) process.off('warning', printer);
  if (opts.json) process.on('warning', onWarning);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
    if (!opts.json) return;
    process.off('warning', onWarning);
    for (const printer of printers) process.on('warning', printer);
  };
}

/** Returns the report of a crash: subject and message on the first line, then the stack. */
export function describeCrash(command: string, what: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error && error.stack ? error.stack.split('\n').slice(1) : [];
  const head = `gitfleet ${command}: ${what} (a bug in gitfleet; exiting ${exitCodes.crashed}): ${message}`;
  return [head, ...stack.map((l) => `  ${l.trim()}`)].join('\n');
}
