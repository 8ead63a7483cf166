// A 64-bit content hash of a text (two 32-bit FNV-1a lanes over its UTF-16 code units, with its
// length): the key the admission memo keeps verdicts by. Not for security: a collision would reuse
// a verdict, and needs two texts of one length whose two hashes both agree.

/** Returns the hash of a text as 16 hex digits and its length. */
export function hashText(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}:${text.length}`;
}
