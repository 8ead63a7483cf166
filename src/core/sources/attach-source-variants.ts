// Per-cluster content of a template source's objects (docs/sources.md#per-cluster-rendering). The
// fleet loads the first render group's output as templates: what detect, the scheduler and the
// followers see. Each other group's output must hold the same objects; a template whose content
// differs there gets that content as a variant for the group's clusters, from which the render
// stage makes those clusters' copies (placement and overrides apply as for any template). A group
// that renders other objects, or another policy, is an error naming the source and the clusters:
// placement decides where an object goes, the chart only what it holds.
import { collectFile, type CollectedItem } from '../load/collect-documents.js';
import { limitsOf, type LoadError, type RenderedFile } from '../load/load-fleet.js';
import { parseYamlStream } from '../load/parse-yaml-stream.js';
import type { Fleet, Template } from '../model/fleet.js';
import type { KubeObject } from '../model/kube-object.js';
import { refKey, refLabel } from '../model/object-ref.js';
import type { TemplateSource } from '../model/template-source.js';

/** What one source rendered for a group of clusters other than its first. */
export interface SourceVariant {
  source: TemplateSource;
  /** The first group's clusters (whose output the fleet loaded) and its files. */
  base: { clusters: readonly string[]; files: readonly RenderedFile[] };
  clusters: readonly string[];
  files: readonly RenderedFile[];
}

/** Base template → the variants last attached to it and the template made then (identity across passes). */
export type VariantMemo = WeakMap<Template, { signature: string; attached: Template }>;

/** Returns the fleet with each source-rendered template's per-cluster variants, or why they do not fit. */
export function attachSourceVariants(
  fleet: Fleet,
  variants: readonly SourceVariant[],
  memo?: VariantMemo,
): { ok: true; fleet: Fleet } | { ok: false; errors: LoadError[] } {
  if (variants.length === 0) return { ok: true, fleet };
  const errors: LoadError[] = [];
  const byTemplate = new Map<string, Map<string, KubeObject>>();
  for (const variant of variants) {
    const base = itemsOf(variant.base.files, errors);
    const other = itemsOf(variant.files, errors);
    if (base === undefined || other === undefined) continue;
    const problem = compareItems(base, other, variant.base.clusters.join(', '), (key, object) => {
      const perCluster = byTemplate.get(key) ?? new Map<string, KubeObject>();
      for (const cluster of variant.clusters) perCluster.set(cluster, object);
      byTemplate.set(key, perCluster);
    });
    if (problem !== undefined) errors.push(disagreement(variant, problem));
  }
  if (errors.length > 0) return { ok: false, errors };
  const templates = fleet.templates.map((template) => {
    const perCluster = byTemplate.get(`${template.source.file}\u0000${template.key}`);
    if (perCluster === undefined) return template;
    for (const object of new Set(perCluster.values())) alignNamespace(object, template);
    const signature = JSON.stringify([...perCluster].map(([c, o]) => [c, o]));
    const kept = memo?.get(template);
    if (kept?.signature === signature) return kept.attached;
    const attached: Template = { ...template, variants: perCluster };
    memo?.set(template, { signature, attached });
    return attached;
  });
  return { ok: true, fleet: { ...fleet, templates } };
}

type Items = Map<string, { item: CollectedItem; json: string }>;

// Identity (file and kind of item and object) → the item, for one group's files; undefined when a
// file does not parse (the error is the file's own, as a load would say it).
function itemsOf(files: readonly RenderedFile[], errors: LoadError[]): Items | undefined {
  const items: Items = new Map();
  for (const file of files) {
    const parsed = parseYamlStream(file, limitsOf({}));
    if (!parsed.ok) {
      errors.push(...parsed.errors);
      return undefined;
    }
    for (const item of collectFile(file.path, parsed.documents, file.namespace)) {
      if (item.type === 'errors') {
        errors.push(...item.errors);
        return undefined;
      }
      if (!('ref' in item)) continue;
      const { place: _place, ...content } = item;
      const json = JSON.stringify(item.type === 'template' ? item.template.object : stripSources(content));
      items.set(`${file.path}\u0000${item.type}\u0000${refKey(item.ref)}`, { item, json });
    }
  }
  return items;
}

// Compares two groups' items: a template whose content differs is reported to `vary`; any other
// difference is returned, in words (`first` names the first group's clusters).
function compareItems(
  base: Items,
  other: Items,
  first: string,
  vary: (key: string, object: KubeObject) => void,
): string | undefined {
  const missing = [...base.keys()].filter((k) => !other.has(k)).map((k) => labelOf(base.get(k)!.item));
  const extra = [...other.keys()].filter((k) => !base.has(k)).map((k) => labelOf(other.get(k)!.item));
  if (extra.length > 0) return `renders ${extra.join(', ')}, which it does not render for ${first}`;
  if (missing.length > 0) return `does not render ${missing.join(', ')}, which it renders for ${first}`;
  for (const [key, { item, json }] of other) {
    if (base.get(key)!.json === json) continue;
    if (item.type !== 'template')
      return `renders ${labelOf(item)} otherwise than for ${first}, and only templates may differ between clusters`;
    vary(`${item.template.source.file}\u0000${item.template.key}`, item.template.object);
  }
  return undefined;
}

function labelOf(item: CollectedItem): string {
  return 'ref' in item ? refLabel(item.ref) : item.type;
}

function disagreement(variant: SourceVariant, problem: string): LoadError {
  const { source } = variant;
  const { file, index, line } = source.source;
  return {
    code: 'SourceRenderFailed',
    file,
    index,
    ...(line !== undefined ? { line } : {}),
    message:
      `${source.kind}/${source.name}: rendered for ${variant.clusters.join(', ')}, it ${problem}: ` +
      `a source must render the same objects for every cluster (placement decides where each goes)`,
  };
}

// A custom resource the loader moved to `default` (no CRD scoped it) is moved in its variants too.
function alignNamespace(object: KubeObject, template: Template): void {
  if (template.ref.namespace !== '' && object.metadata.namespace === undefined)
    object.metadata.namespace = template.ref.namespace;
}

// A policy's content without where it was read (each group's file has the same name anyway).
function stripSources(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === 'source' ? undefined : v)));
}
