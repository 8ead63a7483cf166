/**
 * Returns the byte order of the UTF-8 encodings of two paths (as `LC_ALL=C sort` orders them), without
 * encoding them: UTF-16 order equals code-point order except that a surrogate pair (a code
 * point above U+FFFF) must sort after every other unit.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xPair = x >= 0xd800 && x <= 0xdfff;
    const yPair = y >= 0xd800 && y <= 0xdfff;
    if (xPair !== yPair) return xPair ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
