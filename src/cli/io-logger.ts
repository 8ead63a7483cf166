// The logger of the long-running commands (hub, agent), in the two formats of `--log-format`:
//
//   format  one line on stderr                                      for
//   text    `hub: warning: <message>`                               a person at a terminal (default)
//   json    {"time","level","speaker","cluster",…,"message"}        a log collector: one object a line
//
// JSON lines carry `time` (RFC 3339, from the command's clock, so tests see their own time),
// `level` (info, warning, error), `speaker` (hub, agent) and the line's fields (cluster,
// commit, object, code); the agent's cluster is on every line of its own. Known secrets (the
// Git token) are masked in both formats as a last guard: nothing should log them in the
// first place.
import type { Clock } from '../loops/runtime/clock.js';
import type { LogFields, Logger } from '../loops/runtime/logger.js';
import type { Io } from './io.js';
import { redactUrl } from '../adapters/remote/redact-secrets.js';

export type LogFormat = 'text' | 'json';

/** Who speaks: the process kind, and for an agent its cluster. */
export interface Speaker {
  name: 'hub' | 'agent';
  cluster?: string;
}

export interface IoLoggerOptions {
  format?: LogFormat;
  /** The clock of `time` in JSON lines (default: the system's). */
  clock?: Pick<Clock, 'now'>;
  /** Values masked wherever they appear in a line (empty ones are ignored). */
  secrets?: readonly (string | undefined)[];
}

/**
 * Returns the logger of a long-running command: every line on stderr, prefixed with who speaks
 * (`hub`, `agent <cluster>`), then `warning: ` or `error: ` for those; stdout stays for results.
 */
export function ioLogger(io: Io, speaker: string | Speaker, opts: IoLoggerOptions = {}): Logger {
  const who = typeof speaker === 'string' ? parseSpeaker(speaker) : speaker;
  const mask = masker(opts.secrets ?? []);
  if (opts.format === 'json') {
    const now = opts.clock ? () => opts.clock!.now() : () => Date.now();
    const line =
      (level: string) =>
      (message: string, fields: LogFields = {}): void =>
        io.err(mask(JSON.stringify(jsonRecord({ time: now(), level, who, message, fields }))));
    return { info: line('info'), warn: line('warning'), error: line('error') };
  }
  const prefix = who.cluster === undefined ? who.name : `${who.name} ${who.cluster}`;
  return {
    info: (m) => io.err(mask(`${prefix}: ${m}`)),
    warn: (m) => io.err(mask(`${prefix}: warning: ${m}`)),
    error: (m) => io.err(mask(`${prefix}: error: ${m}`)),
  };
}

/** Returns one JSON log record: the fixed keys first, then the fields that are set. */
function jsonRecord(r: {
  time: number;
  level: string;
  who: Speaker;
  message: string;
  fields: LogFields;
}): Record<string, unknown> {
  const record: Record<string, unknown> = {
    time: new Date(r.time).toISOString(),
    level: r.level,
    speaker: r.who.name,
  };
  if (r.who.cluster !== undefined) record.cluster = r.who.cluster;
  for (const [key, value] of Object.entries(r.fields)) {
    if (value !== undefined && !(key in record)) record[key] = value;
  }
  record.message = r.message;
  return record;
}

function parseSpeaker(text: string): Speaker {
  const [name, cluster] = text.split(' ', 2);
  return { name: name === 'agent' ? 'agent' : 'hub', ...(cluster ? { cluster } : {}) };
}

/** Returns a function replacing every secret (longest first) with `***`. */
function masker(secrets: readonly (string | undefined)[]): (line: string) => string {
  const values = [...new Set(secrets.filter((s): s is string => s !== undefined && s.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  // A URL's user-info (`https://user:password@host`) is masked on every line too.
  if (values.length === 0) return (line) => redactUrl(line);
  return (line) => redactUrl(values.reduce((text, secret) => text.split(secret).join('***'), line));
}
