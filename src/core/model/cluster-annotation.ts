/** Returns the trimmed value of an annotation of a Cluster document, or undefined when it has none (or an empty one). */
export function clusterAnnotationOf(document: unknown, annotation: string): string | undefined {
  if (typeof document !== 'object' || document === null) return undefined;
  const metadata = (document as { metadata?: unknown }).metadata;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const annotations = (metadata as { annotations?: unknown }).annotations;
  if (typeof annotations !== 'object' || annotations === null) return undefined;
  const value = (annotations as Record<string, unknown>)[annotation];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
