// The trigger for a remote repository: call `check` every interval. Checks never overlap: the
// next one is scheduled when the last has finished, so a slow remote stretches the period
// instead of piling up requests. `trigger()` asks for a check now (a webhook arrived); asked
// during a check, it runs one more right after, never two.

export interface PollRemoteOptions {
  /** Milliseconds between the end of one check and the start of the next. */
  intervalMs: number;
  /** The check, e.g. a refresh that tells the loop to look again when refs moved. */
  check: () => Promise<void>;
  /** Receives a failed check's error; polling goes on. */
  onError: (error: unknown) => void;
  /** Check once right away (default false: first check after one interval). */
  immediately?: boolean;
}

/** A running poller. */
export interface Poller {
  /** Asks for a check as soon as none is running. */
  trigger(): void;
  /** Stops polling; resolves once a check in progress has finished. No check starts after. */
  stop(): Promise<void>;
}

/** Starts polling and returns how to trigger a check and how to stop. */
export function pollRemote(opts: PollRemoteOptions): Poller {
  if (!(opts.intervalMs > 0)) throw new RangeError(`intervalMs: ${opts.intervalMs}: must be positive`);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const schedule = (delayMs: number): void => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(run, delayMs);
  };
  const run = (): void => {
    timer = undefined;
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = opts
      .check()
      .catch((error: unknown) => opts.onError(error))
      .finally(() => {
        running = undefined;
        schedule(again ? 0 : opts.intervalMs);
        again = false;
      });
  };

  schedule(opts.immediately ? 0 : opts.intervalMs);
  return {
    trigger: () => schedule(0),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
