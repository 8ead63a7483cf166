/**
 * Returns rows of cells as aligned text columns, two spaces apart; the last column is not
 * padded and no line ends in spaces. The first row sets the number of columns.
 */
export function columns(cells: readonly (readonly string[])[]): string {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
