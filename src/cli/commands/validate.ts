import { formatLoadError, loadFleet } from '../../core/load/load-fleet.js';
import { freshSnapshot } from '../../core/model/snapshot.js';
import { renderFleet } from '../../core/render/render-fleet.js';
import { InterpreterSession } from '../../adapters/lua/interpreter-session.js';
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
 */
export async function runValidate(opts: ValidateOptions, io: Io): Promise<number> {
  const source = await readSource(opts.source, opts.ref);
  const loaded = loadFleet(source.files, { sourceBranch: sourceBranchOf(opts.ref) });
  if (!loaded.ok) {
    if (opts.output === 'json') {
      io.out(
        JSON.stringify({ source: source.description, valid: false, loadErrors: loaded.errors }, null, 2),
      );
    } else for (const e of loaded.errors) io.err(formatLoadError(e));
    return 1;
  }
  const { fleet, problems } = await new InterpreterSession().attach(loaded.fleet);
  for (const problem of problems) io.err(problem);
  const result = renderFleet(freshSnapshot(fleet));
  const summary = summarize(result, source.description, source.commit);
  const valid = problems.length === 0 && !result.diagnostics.some((d) => d.severity === 'error');
  if (opts.output === 'json') io.out(JSON.stringify({ ...summary, valid }, null, 2));
  else io.out(`${formatSummary(summary)}\n${valid ? 'valid' : 'invalid: see the errors above'}`);
  return valid ? 0 : 1;
}
