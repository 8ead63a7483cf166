// The binding record's `spec.templateSource` (docs/sources.md#provenance): where a template a
// source rendered came from, written with the record and read back by `gitfleet log`, `status`
// and the dashboard. Absent for a committed template.
import { isMap } from '../model/kube-object.js';
import type { TemplateProvenance } from '../model/source-provenance.js';

/** Returns the record field of a template's provenance (the binding record's `spec.templateSource`). */
export function provenanceField(p: TemplateProvenance): Record<string, unknown> {
  return {
    kind: p.kind,
    name: p.name,
    file: p.file,
    renderedFile: p.renderedFile,
    ...(p.chart ? { chart: { ...p.chart } } : {}),
    ...(p.kustomization ? { kustomization: { ...p.kustomization } } : {}),
    tool: p.tool,
    ...(p.groups ? { groups: p.groups.map((g) => [...g]) } : {}),
  };
}

/** Returns the provenance a record field holds, or undefined when it holds none readably. */
export function parseProvenanceField(value: unknown): TemplateProvenance | undefined {
  if (!isMap(value)) return undefined;
  const { kind, name, file, renderedFile, tool } = value;
  if (kind !== 'HelmSource' && kind !== 'KustomizeSource') return undefined;
  if (![name, file, renderedFile, tool].every((v) => typeof v === 'string')) return undefined;
  const chart = isMap(value.chart) && typeof value.chart.ref === 'string' ? value.chart : undefined;
  const k =
    isMap(value.kustomization) && typeof value.kustomization.path === 'string'
      ? value.kustomization
      : undefined;
  const groups = Array.isArray(value.groups)
    ? value.groups.filter(Array.isArray).map((g: unknown[]) => g.filter((c) => typeof c === 'string'))
    : undefined;
  return {
    kind,
    name: name as string,
    file: file as string,
    renderedFile: renderedFile as string,
    ...(chart
      ? {
          chart: {
            ref: chart.ref as string,
            ...stringField(chart, 'name'),
            ...stringField(chart, 'version'),
            ...stringField(chart, 'digest'),
          },
        }
      : {}),
    ...(k ? { kustomization: { path: k.path as string, ...stringField(k, 'digest') } } : {}),
    tool: tool as string,
    ...(groups ? { groups } : {}),
  };
}

function stringField<K extends string>(map: Record<string, unknown>, key: K): Partial<Record<K, string>> {
  const v = map[key];
  return typeof v === 'string' ? ({ [key]: v } as Record<K, string>) : {};
}
