/** The terminal as the commands see it, so tests can capture it. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Resolves on SIGINT or SIGTERM. */
  untilInterrupted(): Promise<void>;
  /** Whether stderr is a terminal (a person watching): progress lines are shown only there. */
  isTerminal?(): boolean;
}

/** Returns the process's own stdout, stderr and signals. */
export function processIo(): Io {
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    isTerminal: () => process.stderr.isTTY === true,
    untilInterrupted: () =>
      new Promise((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      }),
  };
}
