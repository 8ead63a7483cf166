// Loading a fleet repo (docs/architecture.md#load): every YAML document of every fleet file, typed,
// defaulted and validated, or every error found — never part of a fleet.
//
// Steps:
// 1. keep the files that can hold fleet documents (is-fleet-source-path.ts), sorted by path;
// 2. find the FleetConfig (find-fleet-config.ts) and drop the files its paths exclude, unparsed;
// 3. parse each remaining file as a YAML stream (parse-yaml-stream.ts);
// 4. turn each document into a template, cluster or policy (collect-documents.ts);
// 5. check each document's fields against its kind's schema (schema/check-document-fields.ts):
//    unknown fields of Karmada's kinds and the FleetConfig are errors, of built-in kinds warnings;
// 6. check what the tenants' files hold (check-tenant-files.ts).
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
import { checkTenantFiles } from './check-tenant-files.js';
import { indexTenants } from './index-tenants.js';
import { parseYamlStream, type RawDocument, type StreamLimits } from './parse-yaml-stream.js';
import { compilePathPattern, isPathSelected } from './path-patterns.js';
import { checkDocumentFields, type FieldFindings } from './schema/check-document-fields.js';
import type { SourceFile } from './source-file.js';
import { findSourceInputs } from './find-source-inputs.js';
import { isUnderPath } from '../model/template-source.js';
import type { LoadedTemplateSource } from '../model/fleet.js';

export type { LoadError, LoadErrorCode } from './load-error.js';
export { formatLoadError } from './load-error.js';
export type { SourceFile } from './source-file.js';

/** A file a template source rendered (loops/source/load-with-sources.ts), loaded after the fleet's own. */
export interface RenderedFile extends SourceFile {
  /** The release namespace of a HelmSource's output: namespaced objects written without one go there. */
  namespace?: string;
}

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
  /** A file a template source rendered (LoadOptions.rendered). */
  rendered?: true;
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
  /**
   * What the fleet's template sources rendered: loaded as templates after the fleet's files,
   * whatever the FleetConfig's paths say (the source document itself was selected by them).
   */
  rendered?: readonly RenderedFile[];
}

const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;
const DEFAULT_MAX_EXPANDED_NODES = 200_000;
const DEFAULT_MAX_EXPANDED_BYTES = 16 * 1024 * 1024;

type Parsed = { ok: true; documents: RawDocument[] } | { ok: false; errors: LoadError[] };

/** Returns the parse budgets of a load's options, their defaults filled in. */
export function limitsOf(options: LoadOptions): StreamLimits {
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
  const selected = sources.filter((f) => f.path === configFile || isPathSelected(f.path, include, exclude));
  const inputs = findSourceInputs(selected, (file) => {
    const parsed = loadOf(file).parsed;
    return parsed.ok ? parsed.documents : undefined;
  });
  c.errors.push(...inputs.errors);
  const isInput = (path: string) => [...inputs.all].some((root) => isUnderPath(path, root));
  const rendered = (options.rendered ?? []).filter((f) => isFleetSourcePath(f.path));
  const fromSources = new Set<SourceFile>(rendered);
  // Every file read as fleet documents, rendered ones included (their paths start with their
  // source file's): the tenants' rules hold for what a source renders too.
  const readPaths: string[] = [];
  for (const file of [...selected.filter((f) => !isInput(f.path)), ...rendered]) {
    readPaths.push(file.path);
    const load = loadOf(file);
    if (!load.parsed.ok) {
      c.errors.push(...load.parsed.errors);
      continue;
    }
    const namespace = 'namespace' in file ? (file as RenderedFile).namespace : undefined;
    load.items ??= keepEqualItems(collectFile(file.path, load.parsed.documents, namespace), load);
    mergeItems(c, fromSources.has(file) ? refuseFleetShaping(load.items) : load.items);
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
  c.errors.push(
    ...checkTenantFiles({
      collection: c,
      files: readPaths,
      index: indexTenants(c.tenants),
      fleetConfig: found.config.source,
    }),
  );
  const { clusters, overridePolicies, interpreterCustomizations, clusterTaintPolicies, tenants } = c;
  const { workloadRebalancers, rolloutStrategies, notificationPolicies, federatedResourceQuotas } = c;
  const templateSources: LoadedTemplateSource[] = c.templateSources.map((source) => ({
    source,
    inputs: inputs.bySource.get(`${source.source.file}#${source.source.index}`) ?? [],
  }));
  const dependents = resolveDependentOverrides(
    c.propagationPolicies,
    overridePolicies,
    options.memo?.waiting,
  );
  // A load without the rendered files (the first of load-with-sources.ts's two) keeps what they
  // gave the last load, so the second one, given the same render, parses none of them again.
  if (options.rendered === undefined)
    for (const [path, load] of previous ?? []) if (load.rendered && !loads.has(path)) loads.set(path, load);
  for (const file of rendered) loads.get(file.path)!.rendered = true;
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
      ...(tenants.length > 0 ? { tenants } : {}),
      ...(notificationPolicies.length > 0 ? { notificationPolicies } : {}),
      ...(federatedResourceQuotas.length > 0 ? { federatedResourceQuotas } : {}),
      ...(templateSources.length > 0 ? { templateSources } : {}),
      config: found.config,
    },
    memo,
    warnings,
  };
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

// Errors in file order, then document order; FleetConfig errors are found first but sort with their file.
function sortErrors(errors: LoadError[]): LoadError[] {
  return errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => comparePaths(a.e.file, b.e.file) || (a.e.index ?? -1) - (b.e.index ?? -1) || a.i - b.i)
    .map(({ e }) => e);
}
