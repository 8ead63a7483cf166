import { formatLoadError, loadFleet } from '../../core/load/load-fleet.js';
import { freshSnapshot } from '../../core/model/snapshot.js';
import { renderFleet } from '../../core/render/render-fleet.js';
import { readSource, sourceBranchOf } from '../read-source.js';
import { formatSummary, summarize } from '../format-summary.js';
import type { Io } from '../io.js';

export interface ValidateOptions {
  source: string;
  ref?: string;
  output: 'text' | 'json';
}

/**
 * Checks a fleet repo without writing anything: it loads and renders it, and fails (exit 1) on
 * a load error or any error diagnostic (an object that fits no cluster, a failing override).
 * Unknown fields of built-in kinds are warnings: printed, and the fleet stays valid.
 */
export async function runValidate(opts: ValidateOptions, io: Io): Promise<number> {
  const source = await readSource(opts.source, opts.ref);
  const loaded = loadFleet(source.files, { sourceBranch: sourceBranchOf(opts.ref) });
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
    return 1;
  }
  const result = renderFleet(freshSnapshot(loaded.fleet));
  const summary = summarize(result, source.description, source.commit);
  const valid = !result.diagnostics.some((d) => d.severity === 'error');
  if (opts.output === 'json') io.out(JSON.stringify({ ...summary, valid, ...warnings }, null, 2));
  else io.out(`${formatSummary(summary)}\n${valid ? 'valid' : 'invalid: see the errors above'}`);
  return valid ? 0 : 1;
}
