// Where loops report what happened. Errors are logged once, by the loop that handles them;
// the functions a loop calls return data or throw, and never log an error themselves.

/** A sink for one-line messages, subject first. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Returns a logger that drops everything (for callers that have nothing to say). */
export function silentLogger(): Logger {
  return { info: () => undefined, warn: () => undefined, error: () => undefined };
}
