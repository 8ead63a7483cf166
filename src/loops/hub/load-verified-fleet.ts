// Steps 1 and 2 of a hub pass past its quick check (hub-pass.ts): the source commit read and
// loaded, gated by the source verification (hub-source-gate.ts), its template sources rendered
// (only once gated: an unverified chart is never run), and its interpreter attached; or the
// result that stops the pass (load errors, nothing verified). Nothing is written here.
import { ConfigError } from '../../core/model/config-error.js';
import { InterpreterSession } from '../../adapters/lua/interpreter-session.js';
import {
  loadFleet,
  type LoadError,
  type LoadResult,
  type RenderedFile,
  type SourceFile,
} from '../../core/load/load-fleet.js';
import type { Fleet } from '../../core/model/fleet.js';
import { gitSourceTree } from '../../adapters/render-tools/source-tree.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import { loadWithSources } from '../source/load-with-sources.js';
import { gateSource } from './hub-source-gate.js';
import { restoreHubMemo } from './hub-memo.js';
import type { HubPassOptions } from './hub-pass-options.js';
import type { HubPassResult, SourceCommit } from './hub-pass-result.js';
import type { PassTimer } from './pass-timer.js';
import type { ReadContext } from './read-git-state.js';
import { readReportedStatus } from './read-reported-status.js';
import { readCommitSourceFiles, readSourceCommit, type SourceHead } from './read-source-commit.js';

/** The fleet a pass renders: the verified source commit, loaded, and the refusal of a newer head. */
export interface LoadedFleet {
  source: SourceCommit;
  fleet: Fleet;
  refusal: { refused?: NonNullable<HubPassResult['refused']> };
}

/**
 * Steps 1 and 2 past the quick check: the source commit read and loaded, verified (hub-source-gate.ts:
 * a refused head gives the last verified commit, or stops the pass), its interpreter attached;
 * or the result that stops the pass (load errors, nothing verified).
 */
export async function loadVerifiedFleet(
  opts: HubPassOptions,
  ctx: { read: ReadContext; timer: PassTimer; head: SourceHead },
): Promise<{ type: 'stopped'; result: HubPassResult } | ({ type: 'loaded' } & LoadedFleet)> {
  const { read, timer } = ctx;
  const { cache } = read;
  if (opts.persistMemo !== false && !cache.memoRead) {
    cache.memoRead = true;
    await restoreHubMemo(cache, { gitdir: opts.repo.gitdir, log: opts.log });
  }
  const atHead = await readSourceCommit(read, ctx.head);
  timer.mark('readMs');
  const loadFiles = fleetLoader(opts, cache);
  const headLoaded = loadFiles(atHead.files);
  timer.mark('loadMs');
  const failed = (errors: LoadError[]) => {
    const result = { source: atHead.source, errors, timings: timer.done(), attempts: 1 };
    return { type: 'stopped', result: { type: 'loadFailed', ...result } } as const;
  };
  if (!headLoaded.ok) return failed(headLoaded.errors);
  // A head the source verification refuses is not rendered: the last verified commit is, again.
  const gated = await gateSource(opts, {
    read,
    source: atHead.source,
    fleet: headLoaded.fleet,
    load: loadFiles,
  });
  if (gated.type === 'refused')
    return { type: 'stopped', result: { ...gated.result, timings: timer.done() } };
  const { source } = gated;
  // Template sources are rendered once the source is gated: an unverified chart is never run.
  const rendered = await renderTemplateSources(opts, {
    read,
    source,
    fleet: gated.fleet,
    head: atHead,
    loadFiles,
  });
  if (!rendered.ok) return failed(rendered.errors);
  const refusal = gated.refused ? { refused: gated.refused } : {};
  const interpreted = await (cache.interpreter ??= new InterpreterSession()).attach(rendered.fleet);
  for (const problem of interpreted.problems) opts.log.warn(problem);
  const fleet = interpreted.fleet;
  assertMirroredPrefix(opts.repo, fleet.config.branchPrefix);
  return { type: 'loaded', source, fleet, refusal };
}

// Loads fleet files through the pass cache's load memo (rendered: the template sources' output).
function fleetLoader(
  opts: HubPassOptions,
  cache: ReadContext['cache'],
): (files: readonly SourceFile[], rendered?: readonly RenderedFile[]) => LoadResult {
  return (files, rendered) => {
    const loaded = loadFleet(files, {
      sourceBranch: opts.sourceRef,
      ...(cache.loadMemo ? { memo: cache.loadMemo } : {}),
      ...(rendered ? { rendered } : {}),
    });
    cache.loadMemo = loaded.memo;
    return loaded;
  };
}

/**
 * Throws a terminal error when the repository mirrors another prefix than the FleetConfig's
 * branchPrefix: a remote's mirror fetches and pushes only the branches under the prefix it was
 * opened with (`hub --branch-prefix`), so the hub could neither read nor publish the branches.
 */
function assertMirroredPrefix(repo: HubRepo, branchPrefix: string): void {
  if (repo.branchPrefix === undefined || repo.branchPrefix === branchPrefix) return;
  throw new ConfigError(
    'BranchPrefixMismatch',
    `${repo.description}: the FleetConfig's branchPrefix is ${JSON.stringify(branchPrefix)}, but this ` +
      `hub mirrors the branches under ${JSON.stringify(repo.branchPrefix)}: start it with ` +
      `--branch-prefix ${branchPrefix}`,
  );
}

/** Returns the gated fleet with its template sources rendered into templates (load-with-sources.ts). */
async function renderTemplateSources(
  opts: HubPassOptions,
  input: {
    read: ReadContext;
    source: SourceCommit;
    fleet: Fleet;
    head: { source: SourceCommit; files: SourceFile[] };
    loadFiles: (files: readonly SourceFile[], rendered?: readonly RenderedFile[]) => LoadResult;
  },
): Promise<{ ok: true; fleet: Fleet } | { ok: false; errors: LoadError[] }> {
  const { read, source, fleet } = input;
  if (fleet.templateSources === undefined) return { ok: true, fleet };
  const files =
    source.commit === input.head.source.commit
      ? input.head.files
      : (await readCommitSourceFiles(read, source.commit)).files;
  return loadWithSources({
    files,
    load: input.loadFiles,
    renderer: opts.sourceRenderer,
    tree: () => gitSourceTree(read.store, source.commit),
    clusterStatus: (loaded) => readReportedStatus(read, loaded),
  });
}
