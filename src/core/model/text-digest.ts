// Digests of texts in plain JavaScript, so the core stays free of Node modules: two FNV-1a
// streams with different offsets plus the length (64 bits and a length: for the few thousand
// texts a render or a rollout compares, the chance that two collide is about 1e-11), and a
// third stream for a fixed-width form that can be combined by XOR.

/** Returns a short digest of a text (two 32-bit FNV-1a streams and the length, base 36). */
export function textDigest(text: string): string {
  const [a, b] = lanesOf(text);
  return `${a!.toString(36)}.${b!.toString(36)}.${text.length.toString(36)}`;
}

/** Returns a 96-bit digest of a text as three 32-bit lanes (for XOR combinations). */
export function textLanes(text: string): Uint32Array {
  return lanesOf(text);
}

function lanesOf(text: string): Uint32Array {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  let c = 0x9e3779b9 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    a = Math.imul(a ^ ch, 0x01000193);
    b = Math.imul(b ^ ch, 0x01000193) ^ (b >>> 13);
    c = Math.imul(c ^ ch, 0x85ebca6b) ^ (c >>> 16);
  }
  return Uint32Array.of(a >>> 0, b >>> 0, c >>> 0);
}
