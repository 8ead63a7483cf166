// The time a text log line starts with (issue 29): RFC 3339 in UTC with milliseconds, as
// controllers print it; a report of several lines is stamped on its first, the others indented.
import assert from 'node:assert/strict';

/** The pattern of a log line's time (`2026-12-05T09:15:36.123Z`), for building line patterns. */
export const stamp = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`;

/** Asserts every line starts with its time, or is a report's indented line right under one. */
export function assertStamped(lines: readonly string[]): void {
  lines.forEach((line, i) => {
    if (new RegExp(`^${stamp} `).test(line)) return;
    assert.ok(/^ {2}\S/.test(line) && i > 0, `line ${i + 1} has no RFC 3339 time:\n${lines.join('\n')}`);
  });
}
