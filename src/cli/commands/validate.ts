import { validateSpec } from './validate-spec.js';
import { formatLoadError, loadFleet } from '../../core/load/load-fleet.js';
import { checkRenderTotal } from '../../core/render/check-render-size.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { freshSnapshot } from '../../core/model/snapshot.js';
import { InterpreterSession } from '../../adapters/lua/interpreter-session.js';
import { readSource, sourceBranchOf } from '../read-source.js';
import { formatSummary, summarize } from '../format-summary.js';
import type { Io } from '../io.js';
import { renderOffLoop } from '../../loops/source/render-off-loop.js';
import { luaOptionsOf } from '../lua-flags.js';
import { sourceRendererOf } from '../source-renderer-of.js';
import type { SourceRenderer } from '../../adapters/render-tools/source-renderer.js';
import { loadWithSources } from '../../loops/source/load-with-sources.js';
import type { LuaInterpreterOptions } from '../../adapters/lua/lua-interpreter.js';
import { reviewSourceSignatures, type SignatureReview } from '../../loops/source/review-source-signatures.js';
import type { SourceKeyFlags } from '../../loops/source/source-policy.js';
import type { SourceTree } from '../../adapters/render-tools/source-tree.js';
import type { Fleet } from '../../core/model/fleet.js';
import { codeownersPaths } from '../../core/tenancy/codeowners.js';
import { tenantFileEditors, type TenantFileEditors } from '../../core/tenancy/tenant-file-editors.js';

/**
 * Returns what the hub's source verification says of the commit validated (keys from the commit
 * itself, or the flags); for files on disk, only that they are not a commit; none without a policy.
 */
async function signaturesOf(
  opts: ValidateOptions,
  commit: string | undefined,
  hasPolicy: boolean,
): Promise<SignatureReview | undefined> {
  if (commit === undefined) {
    return hasPolicy
      ? {
          severity: 'info',
          message: 'signatures not verified: files on disk are not a commit (give --ref)',
          verifying: true,
        }
      : undefined;
  }
  return reviewSourceSignatures({
    dir: opts.source,
    head: commit,
    at: opts.now ?? new Date(),
    ...(opts.sourceKeys ? { flags: opts.sourceKeys } : {}),
  });
}

/**
 * Returns who may change each Tenant file (core/tenancy/tenant-file-editors.ts): the forge's
 * CODEOWNERS of the source read and the signers its source verification trusts.
 */
async function tenantEditorsOf(fleet: Fleet, tree: SourceTree): Promise<TenantFileEditors[]> {
  if (!fleet.tenants || fleet.tenants.length === 0) return [];
  let codeowners: { file: string; text: string } | undefined;
  for (const file of codeownersPaths) {
    const text = await tree.readText(file);
    if (text !== undefined) {
      codeowners = { file, text };
      break;
    }
  }
  const verification = fleet.config.sourceVerification;
  const signers = verification?.allowedSigners && (await tree.readText(verification.allowedSigners));
  const openpgp = verification?.openpgpKeys && (await tree.readText(verification.openpgpKeys));
  return tenantFileEditors({
    tenants: fleet.tenants,
    ...(codeowners ? { codeowners } : {}),
    ...(verification ? { verification } : {}),
    ...(signers ? { allowedSigners: signers } : {}),
    ...(openpgp ? { openpgpKeys: openpgp } : {}),
  });
}

/** `gitfleet validate`: parses its command line and validates. */
export const validateCommand = defineCommand({
  spec: validateSpec,
  run: ({ values, positionals }, io) =>
    runValidate(
      {
        source: positionals[0]!,
        ...(values.ref !== undefined ? { ref: values.ref } : {}),
        output: values.output,
        lua: luaOptionsOf(values),
        sources: sourceRendererOf(values),
      },
      io,
    ),
});

export interface ValidateOptions {
  source: string;
  /** Keys for source verification from the command line (as the hub's flags). */
  sourceKeys?: SourceKeyFlags;
  /** The time keys are judged at (default: now). */
  now?: Date;
  ref?: string;
  output: 'text' | 'json';
  /** The Lua budgets (--lua-call-timeout, --lua-pass-budget; default: adapters/lua's). */
  lua?: LuaInterpreterOptions;
  /** Renders the fleet's template sources (docs/sources.md); absent: a fleet with one fails to load. */
  sources?: SourceRenderer;
}

/**
 * Checks a fleet repo without writing anything: it loads and renders it, and fails (exit 1) on
 * a load error or any error diagnostic (an object that fits no cluster, a failing override).
 * Unknown fields of built-in kinds are warnings: printed, and the fleet stays valid.
 */
export async function runValidate(opts: ValidateOptions, io: Io): Promise<number> {
  const source = await readSource(opts.source, opts.ref);
  const loaded = await loadWithSources({
    files: source.files,
    load: (files, rendered) =>
      loadFleet(files, { sourceBranch: sourceBranchOf(opts.ref), ...(rendered ? { rendered } : {}) }),
    renderer: opts.sources,
    tree: source.tree,
  });
  const warnings = loaded.warnings.length > 0 ? { loadWarnings: loaded.warnings } : {};
  if (opts.output === 'text') for (const w of loaded.warnings) io.err(`warning: ${formatLoadError(w)}`);
  if (!loaded.ok) {
    if (opts.output === 'json') {
      io.out(
        JSON.stringify(
          { source: source.description, valid: false, loadErrors: loaded.errors, ...warnings },
          null,
          2,
        ),
      );
    } else for (const e of loaded.errors) io.err(formatLoadError(e));
    return exitCodes.failed;
  }
  const { fleet, problems } = await new InterpreterSession(opts.lua).attach(loaded.fleet);
  for (const problem of problems) io.err(problem);
  const result = await renderOffLoop(freshSnapshot(fleet));
  const summary = summarize(result, source.description, source.commit);
  const total = checkRenderTotal(result.clusters);
  if (!total.ok) io.err(total.message);
  const signatures = await signaturesOf(opts, source.commit, fleet.config.sourceVerification !== undefined);
  if (opts.output === 'text' && signatures) io.err(`${signatures.severity}: ${signatures.message}`);
  const editors = await tenantEditorsOf(fleet, source.tree());
  if (opts.output === 'text') for (const e of editors) io.err(`${e.severity}: ${e.message}`);
  const tenantFiles = editors.length > 0 ? { tenantFiles: editors } : {};
  const valid =
    problems.length === 0 &&
    total.ok &&
    signatures?.severity !== 'error' &&
    !result.diagnostics.some((d) => d.severity === 'error');
  if (opts.output === 'json')
    io.out(
      JSON.stringify(
        { ...summary, valid, ...warnings, ...(signatures ? { signatures } : {}), ...tenantFiles },
        null,
        2,
      ),
    );
  else io.out(`${formatSummary(summary)}\n${valid ? 'valid' : 'invalid: see the errors above'}`);
  return valid ? exitCodes.ok : exitCodes.failed;
}
