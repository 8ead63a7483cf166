/** The terminal as the commands see it, so tests can capture it. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Resolves on SIGINT or SIGTERM. */
  untilInterrupted(): Promise<void>;
  /**
   * Calls `listener` on SIGINT or SIGTERM until the returned function is called (the process's
   * own Io; absent in tests, whose untilInterrupted resolves at once): for a one-shot command
   * that stops cleanly instead of being killed by the signal.
   */
  onInterrupt?(listener: () => void): () => void;
  /** Whether stderr is a terminal (a person watching): progress lines are shown only there. */
  isTerminal?(): boolean;
}

/** The process's streams whose reader went away (EPIPE): nothing more is written to them. */
const closed = new WeakSet<NodeJS.WriteStream>();
const guarded = new WeakSet<NodeJS.WriteStream>();

/**
 * Makes a reader that goes away (`gitfleet log | head -1`) end the output quietly, as git does:
 * an EPIPE (or any write error) on the stream stops further writes instead of being an
 * unhandled 'error' event; the command runs on and exits with its own code. One listener per
 * stream, however many Io are made.
 */
function guard(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (!guarded.has(stream)) {
    guarded.add(stream);
    stream.on('error', () => closed.add(stream));
  }
  return stream;
}

function write(stream: NodeJS.WriteStream, text: string): void {
  if (!closed.has(guard(stream))) stream.write(`${text}\n`);
}

/** Returns the process's own stdout, stderr and signals. */
export function processIo(): Io {
  return {
    out: (text) => write(process.stdout, text),
    err: (text) => write(process.stderr, text),
    isTerminal: () => process.stderr.isTTY === true,
    onInterrupt: (listener) => {
      process.on('SIGINT', listener);
      process.on('SIGTERM', listener);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      };
    },
    untilInterrupted: () =>
      new Promise((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      }),
  };
}
