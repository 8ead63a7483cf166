// Random texts and edits for diff property tests, reproducible from a seed.

/** Returns a text of lines from a small alphabet (so lines repeat) and a random edit of it. */
export function randomEdit(random: (n: number) => number): { a: string; b: string } {
  const before = Array.from({ length: random(30) }, () => `line ${random(6)}\n`);
  const after = before.slice();
  for (let edits = random(8); edits > 0; edits--) {
    const at = random(after.length + 1);
    const kind = random(3);
    if (kind === 0) after.splice(at, 0, `new ${random(4)}\n`);
    else if (kind === 1) after.splice(at, 1);
    else after[at] = `line ${random(6)}\n`;
  }
  const a = before.join('');
  const b = after.join('');
  return { a: random(4) === 0 ? a.replace(/\n$/, '') : a, b: random(4) === 0 ? b.replace(/\n$/, '') : b };
}

/** Returns the length of a longest common subsequence, by the textbook O(NM) table. */
export function lcsLength<T>(a: readonly T[], b: readonly T[]): number {
  let next = new Array<number>(b.length + 1).fill(0);
  for (let i = a.length - 1; i >= 0; i--) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] = a[i] === b[j] ? next[j + 1]! + 1 : Math.max(next[j]!, row[j + 1]!);
    }
    next = row;
  }
  return next[0]!;
}
