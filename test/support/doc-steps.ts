// The command blocks of a Markdown walkthrough (docs/getting-started.md), read as the steps a
// test runs in order. A fenced block's info string says what kind of step it is:
//
//   ```sh settings     exports the reader sets; a test replaces the values of those it knows
//   ```sh              runs to completion, must exit 0
//   ```sh exit=N       runs to completion, must exit N
//   ```sh background   a long-running process the reader starts in another terminal
//   ```sh cleanup      run once the background processes are stopped (Ctrl-C), and after a failure
//   ```text output     what the sh block just above prints (`…` stands for anything); that
//                      block is run again until it does, so it must be safe to run twice
//
// Blocks in other languages (yaml, plain text) are prose. An unknown word after `sh`, or an
// output block with no sh block above it, is an error: a typo must not silently skip a step.

/** One step of the walkthrough, with the line its block starts on. */
export type DocStep =
  | { kind: 'settings'; line: number; code: string }
  | { kind: 'run'; line: number; code: string; exit: number; expect?: string[] }
  | { kind: 'background'; line: number; code: string; expect?: string[] }
  | { kind: 'cleanup'; line: number; code: string };

interface Fence {
  line: number;
  info: string[];
  body: string;
}

/** Returns the fenced blocks of `markdown`: info words, body (the fence's indent removed), line. */
function fences(markdown: string): Fence[] {
  const found: Fence[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) body.push(lines[j++]!.slice(indent));
    if (j === lines.length) throw new Error(`line ${i + 1}: a code block is never closed`);
    found.push({ line: i + 1, info: open[2]!.trim().split(/\s+/).filter(Boolean), body: body.join('\n') });
    i = j;
  }
  return found;
}

/** Returns the walkthrough's steps in document order; throws naming the line of a malformed block. */
export function readDocSteps(markdown: string): DocStep[] {
  const steps: DocStep[] = [];
  for (const fence of fences(markdown)) {
    const [lang, ...words] = fence.info;
    if (lang === 'text' && words.join(' ') === 'output') {
      attachOutput(steps.at(-1), fence);
      continue;
    }
    if (lang !== 'sh') continue;
    steps.push(shStep(fence, words));
  }
  return steps;
}

function shStep(fence: Fence, words: string[]): DocStep {
  const { line, body: code } = fence;
  const [word, ...rest] = words;
  if (rest.length > 0) throw new Error(`line ${line}: one marker at most after sh, not '${words.join(' ')}'`);
  if (word === undefined) return { kind: 'run', line, code, exit: 0 };
  if (word === 'settings' || word === 'background' || word === 'cleanup') return { kind: word, line, code };
  const exit = /^exit=(\d+)$/.exec(word);
  if (exit) return { kind: 'run', line, code, exit: Number(exit[1]) };
  throw new Error(`line ${line}: unknown marker 'sh ${word}' (settings, background, cleanup, exit=N)`);
}

function attachOutput(step: DocStep | undefined, fence: Fence): void {
  if (!step || (step.kind !== 'run' && step.kind !== 'background') || step.expect) {
    throw new Error(`line ${fence.line}: an output block must follow a sh or sh background block`);
  }
  step.expect = fence.body.split('\n').filter((l) => l.trim() !== '');
}

/**
 * Returns the first expected line `output` does not show, or undefined when it shows them all in
 * order. A line matches when it appears within a line of output, runs of spaces matching any
 * run of spaces and `…` anything (so columns may widen and a log line may gain a prefix).
 */
export function missingLine(expect: readonly string[], output: string): string | undefined {
  const lines = output.split('\n');
  let at = 0;
  for (const wanted of expect) {
    const pattern = lineOf(wanted);
    const found = lines.findIndex((l, i) => i >= at && pattern.test(l));
    if (found < 0) return wanted;
    at = found + 1;
  }
  return undefined;
}

function lineOf(wanted: string): RegExp {
  const parts = wanted
    .trim()
    .split('…')
    .map((part) =>
      part
        .split(/\s+/)
        .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('\\s+'),
    );
  return new RegExp(parts.join('.*?'));
}

/** Returns the settings block with each `export NAME=…` of `values` set to its value, quoted; throws when one is not declared. */
export function applySettings(code: string, values: Readonly<Record<string, string>>): string {
  const seen = new Set<string>();
  const out = code.split('\n').map((line) => {
    const m = /^export ([A-Z_][A-Z0-9_]*)=\S*(\s+#.*)?$/.exec(line);
    const name = m?.[1];
    if (name === undefined || !(name in values)) return line;
    seen.add(name);
    return `export ${name}='${values[name]!.replaceAll("'", "'\\''")}'${m![2] ?? ''}`;
  });
  const missing = Object.keys(values).filter((name) => !seen.has(name));
  if (missing.length > 0) throw new Error(`the settings block does not declare ${missing.join(', ')}`);
  return out.join('\n');
}
