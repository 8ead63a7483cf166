// The end of a component's log, to show why it failed without sending the reader to the file.
import { readFileSync } from 'node:fs';

/** Returns the last `lines` lines of `file` (or a note that it cannot be read). */
export function logTail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch (err) {
    return `(cannot read ${file}: ${(err as Error).message})`;
  }
}
