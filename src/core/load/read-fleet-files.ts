// Steps 3 to 5 of a load (load-fleet.ts), file by file: each file parsed as a YAML stream, its
// documents collected into items and merged into the fleet's lists, and its fields checked
// against their kinds' schemas. What a file gave is kept (FileLoad) so that the next load
// reuses it for a file whose text is the same.
import type { Collection, CollectedItem } from './collect-documents.js';
import { collectFile, mergeItems } from './collect-documents.js';
import type { LoadError } from './load-error.js';
import { parseYamlStream, type RawDocument, type StreamLimits } from './parse-yaml-stream.js';
import { checkDocumentFields, type FieldFindings } from './schema/check-document-fields.js';
import type { RenderedFile, SourceFile } from './source-file.js';

/** What one file gave a load, kept for the next one (LoadMemo). */
export interface FileLoad {
  content: string;
  parsed: Parsed;
  /** The file's items, once collected (a file the FleetConfig excludes is parsed only). */
  items?: CollectedItem[];
  /** The file's unknown fields, once checked. */
  fields?: FieldFindings;
  /** What the file gave the previous load, when its text changed since. */
  last?: FileLoad;
  /** A file a template source rendered (LoadOptions.rendered). */
  rendered?: true;
}

type Parsed = { ok: true; documents: RawDocument[] } | { ok: false; errors: LoadError[] };

/**
 * Returns what a file gives this load, parsed once: what it gave the previous load when its
 * text is the same, else parsed again; each file's load is kept in `loads`.
 */
export function fileLoader(opts: {
  loads: Map<string, FileLoad>;
  previous: ReadonlyMap<string, FileLoad> | undefined;
  limits: StreamLimits;
}): (file: SourceFile) => FileLoad {
  const { loads, previous, limits } = opts;
  return (file) => {
    let load = loads.get(file.path);
    if (load === undefined) {
      const last = previous?.get(file.path);
      load =
        last !== undefined && last.content === file.content
          ? last
          : { content: file.content, parsed: parseYamlStream(file, limits), ...(last ? { last } : {}) };
      loads.set(file.path, load);
    }
    return load;
  };
}

/**
 * Reads the files into the collection, in order: their parse errors, items and field errors go
 * to the collection, the fields worth a warning to `warnings`. A file a template source rendered
 * (in `fromSources`) may not hold what shapes the fleet.
 */
export function readFleetFiles(opts: {
  files: readonly SourceFile[];
  fromSources: ReadonlySet<SourceFile>;
  loadOf: (file: SourceFile) => FileLoad;
  collection: Collection;
  warnings: LoadError[];
}): void {
  const c = opts.collection;
  for (const file of opts.files) {
    const load = opts.loadOf(file);
    if (!load.parsed.ok) {
      c.errors.push(...load.parsed.errors);
      continue;
    }
    const namespace = 'namespace' in file ? (file as RenderedFile).namespace : undefined;
    load.items ??= keepEqualItems(collectFile(file.path, load.parsed.documents, namespace), load);
    mergeItems(c, opts.fromSources.has(file) ? refuseFleetShaping(load.items) : load.items);
    const fields = (load.fields ??= checkDocumentFields(file, load.parsed.documents));
    c.errors.push(...fields.errors);
    opts.warnings.push(...fields.warnings);
  }
}

// In a file whose text changed, an object equal to what the file gave last time (same
// content, same place) is last time's object, so edits to one object of a file do not make
// the render do again the work of the others.
function keepEqualItems(items: CollectedItem[], load: FileLoad): CollectedItem[] {
  const before = load.last?.items;
  delete load.last;
  if (!before) return items;
  const byJson = new Map(before.map((item) => [JSON.stringify(item), item]));
  return items.map((item) => byJson.get(JSON.stringify(item)) ?? item);
}

// What a template source renders may not change what is rendered or where: a Cluster, a
// FleetConfig or another source in its output is an error of the rendered file.
function refuseFleetShaping(items: readonly CollectedItem[]): CollectedItem[] {
  return items.map((item) => {
    if (item.type !== 'cluster' && item.type !== 'fleetConfig' && item.type !== 'templateSource') return item;
    const what =
      item.type === 'cluster'
        ? 'a Cluster'
        : item.type === 'fleetConfig'
          ? 'a FleetConfig'
          : 'a template source';
    const { file, index, line } = item.place.source;
    const message = `a template source renders templates and policies, not ${what}`;
    return {
      place: item.place,
      type: 'errors',
      errors: [{ code: 'InvalidSource', file, index, ...(line !== undefined ? { line } : {}), message }],
    };
  });
}
