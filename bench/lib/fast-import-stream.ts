// The input of `git fast-import` that commits files on main, as the benchmarks build their fleets.
import type { SourceFile } from '../../src/core/load/load-fleet.js';

/** Returns the stream committing the files on main (on top of the current main when `parent`), at a fixed date. */
export function fastImportStream(files: readonly SourceFile[], message: string, parent: boolean): string {
  const parts = [
    'commit refs/heads/main',
    'committer Bench <bench@example.com> 1700000000 +0000',
    `data ${Buffer.byteLength(message)}`,
    message,
    ...(parent ? ['from refs/heads/main^0'] : []),
  ];
  for (const f of files)
    parts.push(`M 100644 inline ${f.path}`, `data ${Buffer.byteLength(f.content)}`, f.content);
  return `${parts.join('\n')}\n`;
}
