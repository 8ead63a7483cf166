// A chart that renders differently from the same inputs (randAlphaNum, uuidv4, now, a generated
// certificate…) would change its objects on every hub pass, and a preview would never equal the
// pass. Two renders of the same inputs are compared document by document; the first that differs
// is named (docs/sources.md#nondeterministic-charts).

/** Returns a sentence naming the object two renders of the same inputs disagree on, or undefined when they agree. */
export function describeNondeterminism(
  first: string,
  second: string,
  functions: readonly string[],
): string | undefined {
  if (first === second) return undefined;
  const a = documentsOf(first);
  const b = documentsOf(second);
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  const doc = a[at] ?? b[at] ?? '';
  const file = /^# Source: (.+)$/m.exec(doc)?.[1]?.trim();
  const kind = /^kind:\s*(\S+)/m.exec(doc)?.[1];
  const name = /^metadata:\s*\n(?:[ \t]+.*\n)*?[ \t]+name:\s*(\S+)/m.exec(doc)?.[1];
  const object = kind !== undefined ? `${kind}/${name ?? '?'}` : 'its output';
  return (
    `${object}${file !== undefined ? ` (${file})` : ''} differs between two renders of the same inputs: ` +
    `the chart calls ${functions.join(', ')}, whose value changes from run to run; set the value ` +
    `in values instead, so every pass renders the same objects`
  );
}

function documentsOf(output: string): string[] {
  return output.split(/^---[ \t]*$/m).map((d) => d.trim());
}
