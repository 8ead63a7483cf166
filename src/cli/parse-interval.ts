// Interval flags and variables (--interval, the remote timeouts) share one syntax, read here so
// every command that takes one imports this file rather than another command.
/** Returns milliseconds for `500ms`, `30s`, `5m`, `1h` or a plain number of seconds. */
export function parseInterval(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) return undefined;
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  const ms = Number(m[1]) * factor;
  return ms >= 1 ? Math.round(ms) : undefined;
}
