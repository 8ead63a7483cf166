// Where loops and adapters report what happened, as a port: the loops' logger (loops/runtime/
// logger.ts, cli/io-logger.ts) and what adapters that run on their own (the Lease election) log to.

/**
 * What a log line is about, where known. Values are short identifiers, never manifests or
 * secrets; a field left undefined is left out of the line.
 */
export interface LogFields {
  cluster?: string | undefined;
  commit?: string | undefined;
  /** The object's path in its branch, or its `Kind/namespace/name`. */
  object?: string | undefined;
  /** A GitfleetError's code. */
  code?: string | undefined;
  [key: string]: string | number | boolean | undefined;
}

/** A sink for one-line messages, subject first. */
export interface Logger {
  /** What only `--log-level debug` shows; a logger without it drops such lines. */
  debug?(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}
