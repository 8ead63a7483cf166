import type { Logger } from '../loops/runtime/logger.js';
import type { Io } from './io.js';

/**
 * Returns the logger of a long-running command: every line on stderr, prefixed with who speaks
 * (`hub`, `agent <cluster>`), then `warning: ` or `error: ` for those; stdout stays for results.
 */
export function ioLogger(io: Io, speaker: string): Logger {
  return {
    info: (m) => io.err(`${speaker}: ${m}`),
    warn: (m) => io.err(`${speaker}: warning: ${m}`),
    error: (m) => io.err(`${speaker}: error: ${m}`),
  };
}
