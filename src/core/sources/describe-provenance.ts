// A template source's provenance in words (docs/sources.md#provenance): one line per source, as
// the render commits' Gitfleet-Template-Source trailers, `gitfleet log` and `gitfleet diff` say it.
import type { SourceProvenance } from '../model/source-provenance.js';

/** The trailer naming a source whose rendered objects a commit changes. */
export const templateSourceTrailer = 'Gitfleet-Template-Source';
/** How many sources a commit names in trailers; past it, a count (the bindings records hold the rest). */
export const maxSourceTrailers = 10;

/** Returns `HelmSource/web (sources/web.yaml)`. */
export function sourceLabel(p: Pick<SourceProvenance, 'kind' | 'name' | 'file'>): string {
  return `${p.kind}/${p.name} (${p.file})`;
}

/**
 * Returns the source's provenance in one line, as the trailers, `gitfleet log` and `gitfleet diff`
 * say it: `HelmSource/web (sources/web.yaml): chart web 1.4.2 <digest>, helm v4.3.2`.
 */
export function describeProvenance(p: SourceProvenance): string {
  return `${sourceLabel(p)}: ${describeInput(p)}, ${p.tool}`;
}

/** Returns what the source rendered from: `chart web 1.4.2 <digest>` or `kustomization kustomize/prod <tree>`. */
export function describeInput(p: SourceProvenance): string {
  if (p.chart !== undefined) {
    const { chart } = p;
    const name = chart.name ?? `${chart.ref} (Chart.yaml names no chart)`;
    const version = chart.version ?? '(Chart.yaml has no version)';
    const where = chart.name !== undefined && chart.ref !== chart.name ? ` from ${chart.ref}` : '';
    return `chart ${name} ${version}${where}${chart.digest !== undefined ? ` ${chart.digest}` : ''}`;
  }
  const k = p.kustomization;
  return `kustomization ${k?.path ?? '?'}${k?.digest !== undefined ? ` ${k.digest}` : ''}`;
}

/** Returns the trailer lines of the sources a commit changes: one each, then a count past the bound. */
export function templateSourceLines(sources: readonly SourceProvenance[]): string[] {
  const lines = [...new Set(sources.map(describeProvenance))].sort();
  const shown = lines.slice(0, maxSourceTrailers).map((l) => `${templateSourceTrailer}: ${l}`);
  const more = lines.length - shown.length;
  return more > 0
    ? [
        ...shown,
        `${templateSourceTrailer}: … and ${more} more (the bindings records name each template's source)`,
      ]
    : shown;
}
