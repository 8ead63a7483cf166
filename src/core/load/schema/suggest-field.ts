// "Did you mean …?" for an unknown field: a field that differs only in case wins (kubectl users
// write `ClusterAffinity` for `clusterAffinity`); otherwise the field fewest edits away, when it
// is near enough to be a typo rather than another word.

/** Returns the valid field the unknown one most likely meant, or undefined when none is close. */
export function suggestField(unknown: string, valid: Iterable<string>): string | undefined {
  const lower = unknown.toLowerCase();
  const fields = [...valid];
  const sameLetters = fields.find((f) => f.toLowerCase() === lower);
  if (sameLetters !== undefined) return sameLetters;
  // A third of the word may be wrong (at least 1, at most 3 edits): clusterAfinity is one edit,
  // `foo` is no typo of `spec`.
  const limit = Math.min(3, Math.max(1, Math.floor(unknown.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const field of fields) {
    if (Math.abs(field.length - unknown.length) >= bestDistance) continue;
    const d = editDistance(lower, field.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [field, d];
  }
  return best;
}

// Levenshtein distance with adjacent transpositions counted as one edit (optimal string alignment).
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      current.push(d);
    }
    [before, previous] = [previous, current];
  }
  return previous[b.length] ?? 0;
}
