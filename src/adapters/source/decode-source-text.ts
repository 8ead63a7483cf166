const decoder = new TextDecoder('utf-8');

/**
 * Returns a file's bytes as text: UTF-8, a leading byte-order mark dropped, invalid bytes
 * replaced. Every source adapter decodes with this one function, so a commit and the same
 * tree on disk give identical text.
 */
export function decodeSourceText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
