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
import type { Fleet, LoadedTemplateSource, Template } from '../model/fleet.js';
import type { FleetConfig } from '../model/fleet-config.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';
import { locationLabel } from '../model/source-location.js';
import { isUnderPath } from '../model/template-source.js';
import { assignStatusRepository } from '../model/assign-status-repository.js';
import { assignRenderRepository } from '../model/assign-render-repository.js';
import { newCollection, type Collection } from './collect-documents.js';
import { comparePaths } from './compare-paths.js';
import { defaultCustomResourceNamespaces } from './default-namespace.js';
import { resolveDependentOverrides, type WaitingPolicies } from './resolve-dependent-overrides.js';
import { findFleetConfig } from './find-fleet-config.js';
import { isFleetSourcePath } from './is-fleet-source-path.js';
import type { LoadError } from './load-error.js';
import { checkCustomizationConflicts } from './parse-interpreter-customization.js';
import { checkNoExecuteTaintPolicies } from './parse-cluster-taint-policy.js';
import { checkTenantFiles } from './check-tenant-files.js';
import { indexTenants } from './index-tenants.js';
import { parseYamlStream, type StreamLimits } from './parse-yaml-stream.js';
import { compilePathPattern, isPathSelected } from './path-patterns.js';
import { fileLoader, readFleetFiles, type FileLoad } from './read-fleet-files.js';
import type { RenderedFile, SourceFile } from './source-file.js';
import { findSourceInputs, type SourceInputs } from './find-source-inputs.js';

export type { LoadError, LoadErrorCode } from './load-error.js';
export { formatLoadError } from './load-error.js';
export type { RenderedFile, SourceFile } from './source-file.js';

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
  const loadOf = fileLoader({ loads, previous, limits });
  const found = findFleetConfig(sources, (file) => loadOf(file).parsed, options.sourceBranch);
  const c = newCollection(found.seen, found.config.source && locationLabel(found.config.source));
  c.errors.push(...found.errors);
  const { read, inputs } = selectFiles(sources, found.config, loadOf);
  c.errors.push(...inputs.errors);
  const rendered = (options.rendered ?? []).filter((f) => isFleetSourcePath(f.path));
  const warnings: LoadError[] = [];
  const all = [...read, ...rendered];
  readFleetFiles({ files: all, fromSources: new Set(rendered), loadOf, collection: c, warnings });
  const scoped = defaultCustomResourceNamespaces(c.templates);
  c.errors.push(...scoped.errors);
  // Every file read as fleet documents, rendered ones included (their paths start with their
  // source file's): the tenants' rules hold for what a source renders too.
  c.errors.push(
    ...checkAcrossFiles(
      c,
      found.config,
      all.map((f) => f.path),
    ),
  );
  const dependents = resolveDependentOverrides(
    c.propagationPolicies,
    c.overridePolicies,
    options.memo?.waiting,
  );
  const memo = memoOf({ loads, previous, rendered, options, limitsKey, waiting: dependents.waiting });
  if (c.errors.length > 0) return { ok: false, errors: sortErrors(c.errors), memo, warnings };
  for (const { template, message } of findPlaintextSecrets(scoped.templates))
    warnings.push({ code: 'PlaintextSecret', ...template.source, message });
  const fleet = fleetOf(c, {
    templates: scoped.templates,
    propagationPolicies: dependents.policies,
    inputs,
    config: found.config,
  });
  return { ok: true, fleet, memo, warnings };
}

/**
 * Returns the files to read as fleet documents (the FleetConfig's and those its paths select,
 * less the inputs of template sources) and the sources' inputs.
 */
function selectFiles(
  sources: readonly SourceFile[],
  config: FleetConfig,
  loadOf: (file: SourceFile) => FileLoad,
): { read: SourceFile[]; inputs: SourceInputs } {
  const include = config.include.map(compilePathPattern);
  const exclude = config.exclude.map(compilePathPattern);
  const configFile = config.source?.file;
  const selected = sources.filter((f) => f.path === configFile || isPathSelected(f.path, include, exclude));
  const inputs = findSourceInputs(selected, (file) => {
    const parsed = loadOf(file).parsed;
    return parsed.ok ? parsed.documents : undefined;
  });
  const isInput = (path: string) => [...inputs.all].some((root) => isUnderPath(path, root));
  return { read: selected.filter((f) => !isInput(f.path)), inputs };
}

/**
 * Returns the errors that take more than one document to see: interpreter customizations in
 * conflict, NoExecute taint policies the FleetConfig does not allow, clusters assigned to no
 * status or render repository, and tenants' files holding what they may not.
 */
function checkAcrossFiles(c: Collection, config: FleetConfig, readPaths: string[]): LoadError[] {
  const errors: LoadError[] = [];
  for (const conflict of checkCustomizationConflicts(c.interpreterCustomizations)) {
    const { customization } = conflict;
    const message = `ResourceInterpreterCustomization/${customization.name}: ${conflict.message}`;
    errors.push({ code: 'InvalidPolicy', ...customization.source, message });
  }
  for (const refused of checkNoExecuteTaintPolicies(c.clusterTaintPolicies, config)) {
    const message = `ClusterTaintPolicy/${refused.policy.name}: ${refused.path}: ${refused.message}`;
    errors.push({ code: 'InvalidPolicy', ...refused.policy.source, message });
  }
  for (const cluster of c.clusters) {
    for (const assigned of [
      assignStatusRepository(cluster, config.statusRepositories),
      assignRenderRepository(cluster, config.renderRepositories),
    ])
      if (assigned.type === 'error')
        errors.push({ code: 'InvalidCluster', ...cluster.source, message: assigned.message });
  }
  errors.push(
    ...checkTenantFiles({
      collection: c,
      files: readPaths,
      index: indexTenants(c.tenants),
      fleetConfig: config.source,
    }),
  );
  return errors;
}

/** Returns what each file gave this load, for the next one. */
function memoOf(opts: {
  loads: Map<string, FileLoad>;
  previous: ReadonlyMap<string, FileLoad> | undefined;
  rendered: readonly RenderedFile[];
  options: LoadOptions;
  limitsKey: string;
  waiting: WaitingPolicies;
}): LoadMemo {
  const { loads, previous } = opts;
  // A load without the rendered files (the first of load-with-sources.ts's two) keeps what they
  // gave the last load, so the second one, given the same render, parses none of them again.
  if (opts.options.rendered === undefined)
    for (const [path, load] of previous ?? []) if (load.rendered && !loads.has(path)) loads.set(path, load);
  for (const file of opts.rendered) loads.get(file.path)!.rendered = true;
  return { limits: opts.limitsKey, files: loads, waiting: opts.waiting };
}

/** Returns the fleet the collection holds, its lists left out when empty. */
function fleetOf(
  c: Collection,
  loaded: {
    templates: Template[];
    propagationPolicies: PropagationPolicy[];
    inputs: SourceInputs;
    config: FleetConfig;
  },
): Fleet {
  const { clusters, overridePolicies, interpreterCustomizations, clusterTaintPolicies, tenants } = c;
  const { workloadRebalancers, rolloutStrategies, notificationPolicies, federatedResourceQuotas } = c;
  const templateSources: LoadedTemplateSource[] = c.templateSources.map((source) => ({
    source,
    inputs: loaded.inputs.bySource.get(`${source.source.file}#${source.source.index}`) ?? [],
  }));
  return {
    templates: loaded.templates,
    clusters,
    propagationPolicies: loaded.propagationPolicies,
    overridePolicies,
    ...(interpreterCustomizations.length > 0 ? { interpreterCustomizations } : {}),
    ...(clusterTaintPolicies.length > 0 ? { clusterTaintPolicies } : {}),
    ...(workloadRebalancers.length > 0 ? { workloadRebalancers } : {}),
    ...(rolloutStrategies.length > 0 ? { rolloutStrategies } : {}),
    ...(tenants.length > 0 ? { tenants } : {}),
    ...(notificationPolicies.length > 0 ? { notificationPolicies } : {}),
    ...(federatedResourceQuotas.length > 0 ? { federatedResourceQuotas } : {}),
    ...(templateSources.length > 0 ? { templateSources } : {}),
    config: loaded.config,
  };
}

// Errors in file order, then document order; FleetConfig errors are found first but sort with their file.
function sortErrors(errors: LoadError[]): LoadError[] {
  return errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => comparePaths(a.e.file, b.e.file) || (a.e.index ?? -1) - (b.e.index ?? -1) || a.i - b.i)
    .map(({ e }) => e);
}
