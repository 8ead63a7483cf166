/**
 * Returns the text broken at spaces into lines of at most `width` columns: the first keeps the
 * text's own leading spaces, the others start with `indent`.
 */
export function wrapText(text: string, width: number, indent: string): string {
  const lead = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = lead;
  for (const word of text.slice(lead.length).split(' ')) {
    if (line.trim() !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line.trim() === '' ? line + word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}
