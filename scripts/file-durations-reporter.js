// A reporter for Node's test runner that writes one JSON line per test file when the file ends:
// {"file": path, "ms": wall time of the file's process}. scripts/run-tests.js passes it beside
// the spec reporter, with a file of its own as destination, and prints the slowest files at the
// end of the run.

/** Yields `{"file","ms"}` lines for the files' own completions (not their tests'). */
export default async function* fileDurations(source) {
  for await (const event of source) {
    if (event.type !== 'test:complete') continue;
    const { name, file, nesting, details } = event.data;
    if (nesting === 0 && file !== undefined && name === file)
      yield `${JSON.stringify({ file, ms: Math.round(details.duration_ms) })}\n`;
  }
}
