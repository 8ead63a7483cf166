// Times as the records on the bindings branch carry them (RFC 3339, UTC, milliseconds), converted
// to and from epoch milliseconds. The pure core compares times it is given; it never reads the
// clock: these conversions are the only uses of Date in src/core, and neither asks for "now".

/** Returns the RFC 3339 text of an epoch-milliseconds time (`2026-12-01T15:04:05.000Z`). */
export function formatTime(ms: number): string {
  // eslint-disable-next-line no-restricted-globals -- a conversion of a given time, not a clock read
  return new Date(ms).toISOString();
}

/** Returns the epoch milliseconds of an RFC 3339 text, or undefined when it is not one. */
export function parseTime(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined;
  // eslint-disable-next-line no-restricted-globals -- a conversion of a given time, not a clock read
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Returns the Date of an epoch-milliseconds time (the failover stage's wake-at times). */
export function dateOf(ms: number): Date {
  // eslint-disable-next-line no-restricted-globals -- a conversion of a given time, not a clock read
  return new Date(ms);
}
