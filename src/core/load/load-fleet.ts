// Loading a fleet repo (docs/architecture.md#load): every YAML document of every fleet file, typed,
// defaulted and validated, or every error found — never part of a fleet.
//
// Steps:
// 1. keep the files that can hold fleet documents (is-fleet-source-path.ts), sorted by path;
// 2. find the FleetConfig (find-fleet-config.ts) and drop the files its paths exclude, unparsed;
// 3. parse each remaining file as a YAML stream (parse-yaml-stream.ts);
// 4. turn each document into a template, cluster or policy (collect-documents.ts);
// 5. check each document's fields against its kind's schema (schema/check-document-fields.ts):
//    unknown fields of Karmada's kinds and the FleetConfig are errors, of built-in kinds warnings.
// The same files in any order give the same fleet.
//
// A load given the memo of the previous one reuses what an unchanged file (same path, same
// text) gave then: its documents are not parsed again and its templates and policies are the
// same objects, which lets the render skip work for them (render-fleet.ts). The fleet is equal
// with or without the memo.
import { findPlaintextSecrets } from '../secrets/find-plaintext-secrets.js';
import type { Fleet } from '../model/fleet.js';
import type { FleetConfig } from '../model/fleet-config.js';
import { locationLabel } from '../model/source-location.js';
import { collectFile, mergeItems, newCollection, type CollectedItem } from './collect-documents.js';
import { comparePaths } from './compare-paths.js';
import { defaultCustomResourceNamespaces } from './default-namespace.js';
import { resolveDependentOverrides, type WaitingPolicies } from './resolve-dependent-overrides.js';
import { findFleetConfig } from './find-fleet-config.js';
import { assignStatusRepository } from '../model/assign-status-repository.js';
import { assignRenderRepository } from '../model/assign-render-repository.js';
import { isFleetSourcePath } from './is-fleet-source-path.js';
import type { LoadError } from './load-error.js';
import { checkCustomizationConflicts } from './parse-interpreter-customization.js';
import { checkNoExecuteTaintPolicies } from './parse-cluster-taint-policy.js';
import { parseYamlStream, type RawDocument, type StreamLimits } from './parse-yaml-stream.js';
import { compilePathPattern, isPathSelected } from './path-patterns.js';
import { checkDocumentFields, type FieldFindings } from './schema/check-document-fields.js';
import type { SourceFile } from './source-file.js';

export type { LoadError, LoadErrorCode } from './load-error.js';
export { formatLoadError } from './load-error.js';
export type { SourceFile } from './source-file.js';

export type LoadResult = ({ ok: true; fleet: Fleet } | { ok: false; errors: LoadError[] }) & {
  /** What each file gave, for the next load. */
  memo: LoadMemo;
  /** Unknown fields of built-in kinds (code UnknownField) and plaintext Secrets (PlaintextSecret): worth a word, not a failed load. */
  warnings: LoadError[];
};

/** What each file gave a load, by path: reused by the next load for a file whose text is the same. */
export interface LoadMemo {
  readonly limits: string;
  readonly files: ReadonlyMap<string, FileLoad>;
  /** The policies that waited for dependent overrides (resolveDependentOverrides). */
  readonly waiting?: WaitingPolicies;
}

interface FileLoad {
  content: string;
  parsed: Parsed;
  /** The file's items, once collected (a file the FleetConfig excludes is parsed only). */
  items?: CollectedItem[];
  /** The file's unknown fields, once checked. */
  fields?: FieldFindings;
  /** What the file gave the previous load, when its text changed since. */
  last?: FileLoad;
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

export interface LoadOptions {
  /** Files larger than this are refused unread (FileTooLarge). Default 8 MiB. */
  maxFileBytes?: number;
  /** Documents expanding through aliases to more nodes than this are refused (AliasExpansion). Default 200,000. */
  maxExpandedNodes?: number;
  /**
   * A file whose documents expand through aliases to more bytes than this (keys and strings, as
   * UTF-8) is refused at the document that passes it (AliasExpansion). Default 16 MiB, twice the
   * file size limit, so only expansion is refused: no API server stores an object that large.
   */
  maxExpandedBytes?: number;
  /**
   * The branch the fleet is rendered from (e.g. `main`), when known: a FleetConfig branchPrefix
   * that would put gitfleet's branches under it (`main/`) is refused, as the hub would fail.
   */
  sourceBranch?: string;
  /** The memo of a previous load (its `memo`). */
  memo?: LoadMemo;
}

const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;
const DEFAULT_MAX_EXPANDED_NODES = 200_000;
const DEFAULT_MAX_EXPANDED_BYTES = 16 * 1024 * 1024;

type Parsed = { ok: true; documents: RawDocument[] } | { ok: false; errors: LoadError[] };

function limitsOf(options: LoadOptions): StreamLimits {
  return {
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    maxExpandedNodes: options.maxExpandedNodes ?? DEFAULT_MAX_EXPANDED_NODES,
    maxExpandedBytes: options.maxExpandedBytes ?? DEFAULT_MAX_EXPANDED_BYTES,
  };
}

/**
 * Returns the FleetConfig the files hold, as a load would find it (step 2), parsing only the
 * files whose text mentions it: the defaults when there is none or it is invalid, whatever the
 * rest of the fleet holds (a template that does not load does not hide the branch prefix).
 */
export function readFleetConfig(files: readonly SourceFile[], options: LoadOptions = {}): FleetConfig {
  const limits = limitsOf(options);
  const sources = files.filter((f) => isFleetSourcePath(f.path)).sort((a, b) => comparePaths(a.path, b.path));
  return findFleetConfig(sources, (file) => parseYamlStream(file, limits), options.sourceBranch).config;
}

/** Returns the fleet held by the files, or every error that keeps it from loading. */
export function loadFleet(files: readonly SourceFile[], options: LoadOptions = {}): LoadResult {
  const limits = limitsOf(options);
  const limitsKey = `${limits.maxFileBytes}/${limits.maxExpandedNodes}/${limits.maxExpandedBytes}`;
  const previous = options.memo?.limits === limitsKey ? options.memo.files : undefined;
  const sources = files.filter((f) => isFleetSourcePath(f.path)).sort((a, b) => comparePaths(a.path, b.path));
  const loads = new Map<string, FileLoad>();
  const loadOf = (file: SourceFile): FileLoad => {
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
  const found = findFleetConfig(sources, (file) => loadOf(file).parsed, options.sourceBranch);
  const include = found.config.include.map(compilePathPattern);
  const exclude = found.config.exclude.map(compilePathPattern);
  const configFile = found.config.source?.file;
  const c = newCollection(found.seen, found.config.source && locationLabel(found.config.source));
  c.errors.push(...found.errors);
  const warnings: LoadError[] = [];
  for (const file of sources) {
    if (file.path !== configFile && !isPathSelected(file.path, include, exclude)) continue;
    const load = loadOf(file);
    if (!load.parsed.ok) {
      c.errors.push(...load.parsed.errors);
      continue;
    }
    mergeItems(c, (load.items ??= keepEqualItems(collectFile(file.path, load.parsed.documents), load)));
    const fields = (load.fields ??= checkDocumentFields(file, load.parsed.documents));
    c.errors.push(...fields.errors);
    warnings.push(...fields.warnings);
  }
  const scoped = defaultCustomResourceNamespaces(c.templates);
  c.errors.push(...scoped.errors);
  for (const conflict of checkCustomizationConflicts(c.interpreterCustomizations)) {
    const { customization } = conflict;
    const message = `ResourceInterpreterCustomization/${customization.name}: ${conflict.message}`;
    c.errors.push({ code: 'InvalidPolicy', ...customization.source, message });
  }
  for (const refused of checkNoExecuteTaintPolicies(c.clusterTaintPolicies, found.config)) {
    const message = `ClusterTaintPolicy/${refused.policy.name}: ${refused.path}: ${refused.message}`;
    c.errors.push({ code: 'InvalidPolicy', ...refused.policy.source, message });
  }
  for (const cluster of c.clusters) {
    for (const assigned of [
      assignStatusRepository(cluster, found.config.statusRepositories),
      assignRenderRepository(cluster, found.config.renderRepositories),
    ])
      if (assigned.type === 'error')
        c.errors.push({ code: 'InvalidCluster', ...cluster.source, message: assigned.message });
  }
  const { clusters, overridePolicies, interpreterCustomizations, clusterTaintPolicies } = c;
  const { workloadRebalancers, rolloutStrategies } = c;
  const dependents = resolveDependentOverrides(
    c.propagationPolicies,
    overridePolicies,
    options.memo?.waiting,
  );
  const memo: LoadMemo = { limits: limitsKey, files: loads, waiting: dependents.waiting };
  if (c.errors.length > 0) return { ok: false, errors: sortErrors(c.errors), memo, warnings };
  const { templates } = scoped;
  for (const { template, message } of findPlaintextSecrets(templates))
    warnings.push({ code: 'PlaintextSecret', ...template.source, message });
  const propagationPolicies = dependents.policies;
  return {
    ok: true,
    fleet: {
      templates,
      clusters,
      propagationPolicies,
      overridePolicies,
      ...(interpreterCustomizations.length > 0 ? { interpreterCustomizations } : {}),
      ...(clusterTaintPolicies.length > 0 ? { clusterTaintPolicies } : {}),
      ...(workloadRebalancers.length > 0 ? { workloadRebalancers } : {}),
      ...(rolloutStrategies.length > 0 ? { rolloutStrategies } : {}),
      config: found.config,
    },
    memo,
    warnings,
  };
}

// Errors in file order, then document order; FleetConfig errors are found first but sort with their file.
function sortErrors(errors: LoadError[]): LoadError[] {
  return errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => comparePaths(a.e.file, b.e.file) || (a.e.index ?? -1) - (b.e.index ?? -1) || a.i - b.i)
    .map(({ e }) => e);
}
