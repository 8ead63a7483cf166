// The logger of the long-running commands (hub, agent, ui, render --watch, status --watch), in
// the two formats of `--log-format`:
//
//   format  one line on stderr                                              for
//   text    `2026-12-05T09:15:36.123Z hub: warning: <message>`              a person at a terminal (default)
//   json    {"time","level","speaker","cluster",…,"message"}                a log collector: one object a line
//
// Both carry the time (RFC 3339 in UTC with milliseconds, as controllers print it, from the
// command's clock, so tests see their own time). Text lines then name who speaks (`hub`, `agent
// member1`), and `debug: `, `warning: ` or `error: ` for those levels; a message of several lines
// (a pass's report) is stamped on its first. JSON lines carry `level` (debug, info, warning,
// error), `speaker` (hub, agent) and the line's fields (cluster, commit, object, code); the agent's
// cluster is on every line of its own. Lines below `--log-level` are dropped. Known secrets (the
// Git token) are masked in both formats as a last guard: nothing should log them in the first place.
import type { Clock } from '../loops/runtime/clock.js';
import { isShown, type LogFields, type Logger, type LogLevel } from '../loops/runtime/logger.js';
import type { Io } from './io.js';
import { redactUrl } from '../adapters/remote/redact-secrets.js';

export type LogFormat = 'text' | 'json';

/** Who speaks: the process kind (`hub`, `agent`, `gitfleet ui`…), and for an agent its cluster. */
export interface Speaker {
  name: string;
  cluster?: string;
}

export interface IoLoggerOptions {
  format?: LogFormat;
  /** The clock of every line's time (default: the system's). */
  clock?: Pick<Clock, 'now'>;
  /** The least severe level shown (default info). */
  level?: LogLevel;
  /** Values masked wherever they appear in a line (empty ones are ignored). */
  secrets?: readonly (string | undefined)[];
}

/**
 * Returns the logger of a long-running command: every line on stderr, stamped with the time,
 * prefixed with who speaks (`hub`, `agent <cluster>`), then `debug: `, `warning: ` or `error: `
 * for those; stdout stays for results.
 */
export function ioLogger(io: Io, speaker: string | Speaker, opts: IoLoggerOptions = {}): Logger {
  const who = typeof speaker === 'string' ? parseSpeaker(speaker) : speaker;
  const mask = masker(opts.secrets ?? []);
  const now = opts.clock ? () => opts.clock!.now() : () => Date.now();
  const threshold = opts.level ?? 'info';
  const prefix = who.cluster === undefined ? who.name : `${who.name} ${who.cluster}`;
  const write =
    opts.format === 'json'
      ? (level: LogLevel, message: string, fields: LogFields) =>
          io.err(mask(JSON.stringify(jsonRecord({ time: now(), level, who, message, fields }))))
      : (level: LogLevel, message: string) =>
          io.err(mask(`${formatLogTime(now())} ${prefix}: ${textLevel[level]}${message}`));
  const line =
    (level: LogLevel) =>
    (message: string, fields: LogFields = {}): void => {
      if (isShown(level, threshold)) write(level, message, fields);
    };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

/** Returns a log line's time: RFC 3339 in UTC with milliseconds (`2026-12-05T09:15:36.123Z`). */
export function formatLogTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** What a text line says of its level after the speaker; info says nothing. */
const textLevel: Record<LogLevel, string> = {
  debug: 'debug: ',
  info: '',
  warn: 'warning: ',
  error: 'error: ',
};

/** The level's name in JSON records (`warning`, as these records always said). */
const jsonLevel: Record<LogLevel, string> = {
  debug: 'debug',
  info: 'info',
  warn: 'warning',
  error: 'error',
};

/** Returns one JSON log record: the fixed keys first, then the fields that are set. */
function jsonRecord(r: {
  time: number;
  level: LogLevel;
  who: Speaker;
  message: string;
  fields: LogFields;
}): Record<string, unknown> {
  const record: Record<string, unknown> = {
    time: formatLogTime(r.time),
    level: jsonLevel[r.level],
    speaker: r.who.name,
  };
  if (r.who.cluster !== undefined) record.cluster = r.who.cluster;
  for (const [key, value] of Object.entries(r.fields)) {
    if (value !== undefined && !(key in record)) record[key] = value;
  }
  record.message = r.message;
  return record;
}

// `agent member1` is an agent and its cluster; anything else (`hub`, `gitfleet ui`) is a name.
function parseSpeaker(text: string): Speaker {
  const agent = /^agent (\S+)$/.exec(text);
  return agent ? { name: 'agent', cluster: agent[1]! } : { name: text };
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
