// Which template sources a set of changed rendered objects came from (docs/sources.md#provenance):
// each rendered object names its file in its `gitfleet.io/source` annotation
// (`<source document>@<chart file>` for a source's output), and the fleet's provenance map names
// the source of that file. A render commit's Gitfleet-Template-Source trailers and `gitfleet diff`'s
// per-cluster source lines are made from it.
import type { SourceProvenance } from '../model/source-provenance.js';
import { sourceAnnotation } from '../model/gitfleet-keys.js';

const ANNOTATION = new RegExp(`^\\s+${sourceAnnotation.replace(/[./]/g, '\\$&')}: (.+)$`, 'm');

/** Returns the file a rendered object's text names in its `gitfleet.io/source` annotation, if any. */
export function renderedSourceFile(text: string): string | undefined {
  const raw = ANNOTATION.exec(text)?.[1]?.trim();
  if (raw === undefined) return undefined;
  if (raw.startsWith("'") && raw.endsWith("'")) return raw.slice(1, -1).replace(/''/g, "'");
  if (raw.startsWith('"') && raw.endsWith('"')) {
    try {
      return JSON.parse(raw) as string;
    } catch {
      return undefined;
    }
  }
  return raw;
}

/**
 * Returns the sources the changed objects came from, each once, in the order first met: for
 * each text (the object as rendered now, or as it was when removed), the source of its file.
 */
export function changedSources(
  texts: Iterable<string | undefined>,
  provenance: ReadonlyMap<string, SourceProvenance> | undefined,
): SourceProvenance[] {
  if (provenance === undefined || provenance.size === 0) return [];
  const found = new Set<SourceProvenance>();
  for (const text of texts) {
    if (text === undefined || !text.includes('@')) continue;
    const file = renderedSourceFile(text);
    const p = file === undefined ? undefined : provenance.get(file);
    if (p !== undefined) found.add(p);
  }
  return [...found];
}
