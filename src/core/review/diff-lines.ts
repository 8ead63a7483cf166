import { diffSequences, type SequenceOp } from './diff-sequences.js';

/** One line of a line diff: kept, only in the old text, or only in the new one. */
export interface LineEdit {
  op: SequenceOp;
  /** The line with its `\n`; the last line of a text lacks it when the text does not end in one. */
  line: string;
}

/**
 * Returns a shortest line-by-line edit script from text `a` to text `b` (Myers), deletions before
 * insertions within each run of changes, as `git diff` shows them. A last line without a newline
 * differs from the same line with one, as in git: adding the final newline changes that line.
 */
export function diffLines(a: string, b: string): LineEdit[] {
  const aLines = splitLines(a);
  const bLines = splitLines(b);
  const ids = new Map<string, number>();
  const intern = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  const aIds = aLines.map(intern);
  const bIds = bLines.map(intern);
  const edits: LineEdit[] = [];
  let i = 0;
  let j = 0;
  for (const [x, y] of matchLines(aIds, bIds)) {
    for (; i < x; i++) edits.push({ op: 'delete', line: aLines[i]! });
    for (; j < y; j++) edits.push({ op: 'insert', line: bLines[j]! });
    edits.push({ op: 'equal', line: aLines[i++]! });
    j++;
  }
  for (; i < aLines.length; i++) edits.push({ op: 'delete', line: aLines[i]! });
  for (; j < bLines.length; j++) edits.push({ op: 'insert', line: bLines[j]! });
  return edits;
}

/**
 * Returns the pairs of line indexes (a, b) a longest common subsequence keeps. Lines found on
 * one side only can be in no common subsequence, so the search runs without them (GNU diff's
 * "discard" step): two unrelated files then cost nothing instead of O(N²).
 */
function matchLines(aIds: readonly number[], bIds: readonly number[]): [number, number][] {
  const inA = new Set(aIds);
  const inB = new Set(bIds);
  const aKept = aIds.flatMap((id, index) => (inB.has(id) ? [index] : []));
  const bKept = bIds.flatMap((id, index) => (inA.has(id) ? [index] : []));
  const ops = diffSequences(
    aKept.map((index) => aIds[index]!),
    bKept.map((index) => bIds[index]!),
  );
  const pairs: [number, number][] = [];
  let p = 0;
  let q = 0;
  for (const op of ops) {
    if (op === 'equal') pairs.push([aKept[p++]!, bKept[q++]!]);
    else if (op === 'delete') p++;
    else q++;
  }
  return pairs;
}

/** Returns the lines of a text, each with its `\n` (the last one without, when the text has none). */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const next = end < 0 ? text.length : end + 1;
    lines.push(text.slice(start, next));
    start = next;
  }
  return lines;
}
