const OFFSET_BASIS = 0x811c9dc5;
const PRIME = 0x01000193;

/** Returns the 32-bit FNV-1a hash of the UTF-8 bytes of a string (Go's hash/fnv New32a). */
export function fnv1a32(text: string): number {
  let hash = OFFSET_BASIS;
  for (const byte of new TextEncoder().encode(text)) {
    hash = Math.imul(hash ^ byte, PRIME) >>> 0;
  }
  return hash >>> 0;
}
