// The `gitfleet` command lines written in a document, as argument lists: shell words split the
// way bash splits them (quotes, `$VAR`), so a test can parse them with the CLI's own parser.

/** One `gitfleet …` command found in a text, with the text it came from. */
export interface WrittenCommand {
  text: string;
  args: string[];
}

const operators = new Set(['|', '||', '&', '&&', ';', '>', '>>', '<', '2>&1']);

/** Splits one line of shell into words and operators; `$NAME` and `${NAME}` take `vars[NAME]` (or `value`). */
export function shellWords(line: string, vars: Readonly<Record<string, string>> = {}): string[] {
  const words: string[] = [];
  const variable = (name: string) => vars[name] ?? 'value';
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (c === '$' && /[A-Za-z_{]/.test(line[i + 1] ?? '')) {
      const m = /^\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/.exec(line.slice(i))!;
      word = (word ?? '') + variable((m[1] ?? m[2])!);
      i += m[0].length - 1;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) {
      break;
    } else if ('|&;<>'.includes(c)) {
      if (word !== undefined) words.push(word);
      const op = /^(\|\||&&|>>|\||&|;|<|>)/.exec(line.slice(i))![0];
      words.push(op);
      word = undefined;
      i += op.length - 1;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Returns every `gitfleet` command in a block of shell (lines joined at a trailing backslash). */
export function commandsInShell(code: string, vars: Readonly<Record<string, string>> = {}): WrittenCommand[] {
  const found: WrittenCommand[] = [];
  for (const line of code.replace(/\\\n/g, ' ').split('\n')) {
    const words = shellWords(line, vars);
    let start = 0;
    for (let i = 0; i <= words.length; i++) {
      if (i < words.length && !operators.has(words[i]!)) continue;
      const command = words.slice(start, i);
      if (command[0] === 'gitfleet') found.push({ text: line.trim(), args: command.slice(1) });
      start = i + 1;
    }
  }
  return found;
}

/** Returns every inline code span of `markdown` (outside fenced blocks) that starts with `gitfleet `. */
export function commandsInProse(markdown: string): WrittenCommand[] {
  const prose = markdown.replace(/^\s*```[^\n]*\n[\s\S]*?^\s*```\s*$/gm, '');
  return [...prose.matchAll(/`(gitfleet [^`]+)`/g)].map((m) => ({
    text: m[1]!,
    args: shellWords(m[1]!).slice(1),
  }));
}
