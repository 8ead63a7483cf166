// Unified diff text as `git diff` writes it and `git apply` reads it:
//
//   diff --git a/<path> b/<path>
//   new file mode 100644            (only when the old side is absent; `deleted file mode` for the new)
//   --- a/<path>                    (`/dev/null` for an absent side)
//   +++ b/<path>
//   @@ -<start>[,<count>] +<start>[,<count>] @@
//
// A hunk's count is left out when it is 1; a side with no lines in the hunk gives the number of
// the line before it (0 at the top of the file). A line without a final newline is followed by
// `\ No newline at end of file`. Paths are written as given: rendered paths are Kubernetes names,
// which never need git's quoting.
import { diffLines, type LineEdit } from './diff-lines.js';

export interface UnifiedDiffInput {
  /** The old file's path, or null when the file is added. */
  oldPath: string | null;
  /** The new file's path, or null when the file is removed. */
  newPath: string | null;
  a: string;
  b: string;
  /** Lines of context around each change; 3, as git. */
  context?: number;
}

/** Returns the unified diff of two texts, or '' when nothing differs. */
export function unifiedDiff(input: UnifiedDiffInput): string {
  return formatUnifiedDiff({ ...input, edits: diffLines(input.a, input.b) });
}

/** Returns the unified diff text of an edit script already computed with `diffLines`. */
export function formatUnifiedDiff(
  input: Omit<UnifiedDiffInput, 'a' | 'b'> & { edits: readonly LineEdit[] },
): string {
  const { oldPath, newPath, edits } = input;
  const changed = edits.some((e) => e.op !== 'equal');
  if (!changed && oldPath !== null && newPath !== null) return '';
  const name = newPath ?? oldPath ?? '';
  const lines = [`diff --git a/${oldPath ?? name} b/${newPath ?? name}`];
  if (oldPath === null) lines.push('new file mode 100644');
  if (newPath === null) lines.push('deleted file mode 100644');
  if (changed) {
    lines.push(oldPath === null ? '--- /dev/null' : `--- a/${oldPath}`);
    lines.push(newPath === null ? '+++ /dev/null' : `+++ b/${newPath}`);
    const starts = lineStarts(edits);
    for (const hunk of findHunks(edits, input.context ?? 3)) lines.push(...formatHunk(edits, hunk, starts));
  }
  return `${lines.join('\n')}\n`;
}

interface Hunk {
  /** Index range [from, to) in the edit script. */
  from: number;
  to: number;
}

// Changes closer than twice the context share a hunk, as their contexts would touch.
function findHunks(edits: readonly LineEdit[], context: number): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  edits.forEach((edit, i) => {
    if (edit.op === 'equal') return;
    if (current && i - current.to <= context) current.to = Math.min(edits.length, i + 1 + context);
    else {
      current = { from: Math.max(0, i - context), to: Math.min(edits.length, i + 1 + context) };
      hunks.push(current);
    }
  });
  return hunks;
}

function formatHunk(edits: readonly LineEdit[], hunk: Hunk, starts: LineStarts): string[] {
  let aCount = 0;
  let bCount = 0;
  const body: string[] = [];
  for (let i = hunk.from; i < hunk.to; i++) {
    const { op, line } = edits[i]!;
    if (op !== 'insert') aCount++;
    if (op !== 'delete') bCount++;
    const prefix = op === 'equal' ? ' ' : op === 'delete' ? '-' : '+';
    if (line.endsWith('\n')) body.push(prefix + line.slice(0, -1));
    else body.push(prefix + line, '\\ No newline at end of file');
  }
  const header = `@@ -${range(starts.a[hunk.from]!, aCount)} +${range(starts.b[hunk.from]!, bCount)} @@`;
  return [header, ...body];
}

/** For each edit, how many old and new lines come before it. */
interface LineStarts {
  a: number[];
  b: number[];
}

function lineStarts(edits: readonly LineEdit[]): LineStarts {
  const starts: LineStarts = { a: [], b: [] };
  let a = 0;
  let b = 0;
  for (const { op } of edits) {
    starts.a.push(a);
    starts.b.push(b);
    if (op !== 'insert') a++;
    if (op !== 'delete') b++;
  }
  return starts;
}

function range(start: number, count: number): string {
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}
