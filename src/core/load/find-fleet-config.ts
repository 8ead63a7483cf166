// The FleetConfig is needed before the other files are chosen (its include/exclude choose them),
// so it is looked for first, in the files whose text mentions it.
import { defaultFleetConfig, type FleetConfig } from '../model/fleet-config.js';
import { isMap } from '../model/kube-object.js';
import { locationLabel } from '../model/source-location.js';
import type { LoadError } from './load-error.js';
import { parseFleetConfig } from './parse-fleet-config.js';
import type { RawDocument } from './parse-yaml-stream.js';
import { classifyDocument } from './read-envelope.js';
import type { SourceFile } from './source-file.js';

/** Parses a file (the caller caches); errors are the file's own. */
export type ParseFile = (
  file: SourceFile,
) => { ok: true; documents: RawDocument[] } | { ok: false; errors: LoadError[] };

/** The repo's settings and where they came from. */
export interface FoundFleetConfig {
  config: FleetConfig;
  /** `file#index` of every FleetConfig document found (already checked and reported). */
  seen: Set<string>;
  errors: LoadError[];
}

/** Returns the repo's FleetConfig (defaults when it has none), with errors for invalid or extra ones. */
export function findFleetConfig(
  sources: readonly SourceFile[],
  parse: ParseFile,
  sourceBranch?: string,
): FoundFleetConfig {
  const found: { file: SourceFile; doc: RawDocument }[] = [];
  for (const file of sources) {
    if (!file.content.includes('FleetConfig')) continue;
    const result = parse(file);
    if (!result.ok) continue; // reported with the file, unless the FleetConfig excludes it
    for (const doc of result.documents) {
      const v = doc.value;
      if (isMap(v) && typeof v['apiVersion'] === 'string' && typeof v['kind'] === 'string') {
        if (classifyDocument(v['apiVersion'], v['kind']) === 'FleetConfig') found.push({ file, doc });
      }
    }
  }
  const first = found[0];
  if (first === undefined) return { config: defaultFleetConfig(), seen: new Set(), errors: [] };
  const source = { file: first.file.path, index: first.doc.index, line: first.doc.line };
  const errors: LoadError[] = found.slice(1).map(({ file, doc }) => ({
    code: 'TooManyFleetConfigs',
    file: file.path,
    index: doc.index,
    line: doc.line,
    message: `FleetConfig: a repo has at most one FleetConfig; another is at ${locationLabel(source)}`,
  }));
  const parsed = parseFleetConfig({
    object: first.doc.value as Record<string, unknown>,
    source,
    ...(sourceBranch !== undefined ? { sourceBranch } : {}),
  });
  if (!parsed.ok) {
    for (const issue of parsed.issues) {
      errors.push({
        code: 'InvalidFleetConfig',
        ...source,
        message: `FleetConfig: ${issue.path}: ${issue.message}`,
      });
    }
  }
  const config = parsed.ok ? parsed.config : defaultFleetConfig();
  const seen = new Set(found.map(({ file, doc }) => `${file.path}#${doc.index}`));
  return { config, seen, errors };
}
