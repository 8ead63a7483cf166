// Interval flags and variables (--interval, the remote timeouts, the monitor and heartbeat
// settings) share one syntax, read here so every command that takes one imports this file
// rather than another command. It is Go's time.ParseDuration form, which Karmada's flags use
// (`40s`, `5m`, `1m30s`, `500ms`, `1.5h`), without signs and without units below a millisecond,
// plus a plain number of seconds as gitfleet always took it.

const unitMs: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Returns milliseconds for `500ms`, `30s`, `5m`, `1h`, `1m30s` or a plain number of seconds. */
export function parseInterval(text: string): number | undefined {
  const trimmed = text.trim();
  const plain = /^\d+(?:\.\d+)?$/.test(trimmed) ? Number(trimmed) * 1000 : undefined;
  const ms = plain ?? parseGoDuration(trimmed);
  return ms !== undefined && ms >= 1 ? Math.round(ms) : undefined;
}

/** Returns the milliseconds of a sequence of `<number><unit>` parts, or undefined when it is not one. */
function parseGoDuration(text: string): number | undefined {
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < text.length) {
    part.lastIndex = at;
    const m = part.exec(text);
    if (!m) return undefined;
    total += Number(m[1]) * unitMs[m[2]!]!;
    at = part.lastIndex;
  }
  return at === 0 ? undefined : total;
}
