import { renderSpec } from './render-spec.js';
import { InterpreterSession } from '../../adapters/lua/interpreter-session.js';
import { watch } from 'chokidar';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';
import { formatLoadError, loadFleet, type LoadError, type LoadMemo } from '../../core/load/load-fleet.js';
import { freshSnapshot } from '../../core/model/snapshot.js';
import type { RenderMemo } from '../../core/render/render-fleet.js';
import { checkRenderTotal } from '../../core/render/check-render-size.js';
import { writeRenderDir, type FileChange } from '../../adapters/output/write-render-dir.js';
import { readSource, sourceBranchOf } from '../read-source.js';
import { formatSummary, summarize } from '../format-summary.js';
import type { Io } from '../io.js';
import { printError } from '../print-error.js';
import { renderOffLoop } from '../../loops/source/render-off-loop.js';
import { luaOptionsOf } from '../lua-flags.js';
import { sourceRendererOf } from '../source-renderer-of.js';
import type { SourceRenderer } from '../../adapters/render-tools/source-renderer.js';
import { loadWithSources } from '../../loops/source/load-with-sources.js';
import type { LuaInterpreterOptions } from '../../adapters/lua/lua-interpreter.js';
import { commandLog } from '../command-log.js';
import type { LogLevel } from '../../loops/runtime/logger.js';

/** `gitfleet render`: parses its command line and renders. */
export const renderCommand = defineCommand({
  spec: renderSpec,
  run: ({ values, positionals }, io) =>
    runRender(
      {
        source: positionals[0]!,
        ...(values.ref !== undefined ? { ref: values.ref } : {}),
        out: values.out,
        output: values.output,
        watch: values.watch,
        logLevel: values['log-level'],
        lua: luaOptionsOf(values),
        sources: sourceRendererOf(values),
      },
      io,
    ),
});

export interface RenderOptions {
  source: string;
  ref?: string;
  out: string;
  output: 'text' | 'json';
  watch: boolean;
  /** With `watch`: the least severe lines shown (default info). */
  logLevel?: LogLevel;
  /** The Lua budgets (--lua-call-timeout, --lua-pass-budget; default: adapters/lua's). */
  lua?: LuaInterpreterOptions;
  /** Renders the fleet's template sources (docs/sources.md); absent: a fleet with one fails to load. */
  sources?: SourceRenderer;
}

/** Renders a fleet repo into a directory; returns the exit code (1 on load errors). */
export async function runRender(opts: RenderOptions, io: Io): Promise<number> {
  if (!opts.watch) return renderOnce(opts, io);
  if (opts.ref !== undefined)
    throw new UsageError('--watch reads the working tree; it cannot be combined with --ref');
  return renderOnWatch(opts, io);
}

async function renderOnce(opts: RenderOptions, io: Io): Promise<number> {
  const outcome = await renderToDir(opts);
  if (!outcome.ok) {
    if (opts.output === 'json' && outcome.tooLarge !== undefined) {
      const message = outcome.tooLarge;
      printError(io, { json: true, text: message, report: { code: 'RenderTooLarge', message } });
    } else if (opts.output === 'json') {
      const message = `${opts.source}: the fleet does not load (${outcome.loadErrors.length} error(s)); nothing was written`;
      printError(io, {
        json: true,
        text: message,
        report: { code: 'LoadFailed', message, errors: outcome.loadErrors },
      });
    } else for (const line of outcome.errors) io.err(line);
    return exitCodes.failed;
  }
  if (opts.output === 'json') io.out(JSON.stringify({ ...outcome.summary, out: opts.out }, null, 2));
  else io.out(`${formatSummary(outcome.summary)}\nwrote ${opts.out}`);
  return exitCodes.ok;
}

type RenderDirOutcome =
  | { ok: true; summary: ReturnType<typeof summarize>; changes: FileChange[] }
  | { ok: false; errors: string[]; loadErrors: LoadError[]; tooLarge?: string };

/** What the last render of a watch loaded and rendered: the next one redoes only what changed. */
interface WatchMemos {
  load?: LoadMemo;
  render?: RenderMemo;
  interpreter?: InterpreterSession;
}

async function renderToDir(opts: RenderOptions, memos: WatchMemos = {}): Promise<RenderDirOutcome> {
  const source = await readSource(opts.source, opts.ref);
  const loaded = await loadWithSources({
    files: source.files,
    load: (files, rendered) => {
      const result = loadFleet(files, {
        sourceBranch: sourceBranchOf(opts.ref),
        ...(memos.load ? { memo: memos.load } : {}),
        ...(rendered ? { rendered } : {}),
      });
      memos.load = result.memo;
      return result;
    },
    renderer: opts.sources,
    tree: source.tree,
  });
  if (!loaded.ok) return { ok: false, errors: loaded.errors.map(formatLoadError), loadErrors: loaded.errors };
  const { fleet, problems } = await (memos.interpreter ??= new InterpreterSession(opts.lua)).attach(
    loaded.fleet,
  );
  if (problems.length > 0) return { ok: false, errors: problems, loadErrors: [] };
  const result = await renderOffLoop(freshSnapshot(fleet), memos.render ? { memo: memos.render } : {});
  memos.render = result.memo;
  const total = checkRenderTotal(result.clusters);
  if (!total.ok) return { ok: false, errors: [total.message], loadErrors: [], tooLarge: total.message };
  const files = new Map([...result.clusters].map(([name, out]) => [name, out.files] as const));
  const changes = await writeRenderDir(opts.out, files);
  return { ok: true, summary: summarize(result, source.description, source.commit), changes };
}

// The edit-render loop: every save re-renders; a load error is shown and the last good output
// stays on disk. Each re-render's report is stamped with its time (command-log.ts).
async function renderOnWatch(opts: RenderOptions, io: Io): Promise<number> {
  const { log, report } = commandLog(io, 'gitfleet render', opts.logLevel ? { level: opts.logLevel } : {});
  let pending: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const memos: WatchMemos = {};
  const rerender = () =>
    (running = running.then(async () => {
      try {
        const outcome = await renderToDir(opts, memos);
        if (!outcome.ok) {
          const lines = [`render failed; ${opts.out} keeps the last good output:`];
          report([...lines, ...outcome.errors.map((line) => `  ${line}`)].join('\n'), {
            level: 'error',
            failed: true,
          });
          return;
        }
        const lines = [describeChanges(outcome.changes)];
        for (const d of outcome.summary.diagnostics.filter((d) => d.severity !== 'info')) {
          lines.push(`  ${d.severity}: ${d.subject}${d.cluster ? ` @${d.cluster}` : ''}: ${d.message}`);
        }
        report(lines.join('\n'), { level: 'info' });
      } catch (error) {
        report(`render failed: ${(error as Error).message}`, { level: 'error', failed: true });
      }
    }));
  await rerender();
  const watcher = watch(opts.source, {
    ignored: (path: string) => /(^|\/)\.(git|gitfleet)(\/|$)/.test(path) || path.startsWith(opts.out),
    ignoreInitial: true,
  });
  watcher.on('all', (_event, path) => {
    if (!/\.ya?ml$/.test(path) && !_event.endsWith('Dir')) return;
    log.debug?.(`${_event} ${path}: rendering again`);
    clearTimeout(pending);
    pending = setTimeout(() => void rerender(), 150);
  });
  // Only a watcher that finished its first scan sees the next save.
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  report(`watching ${opts.source}; press Ctrl-C to stop`, { level: 'info' });
  await io.untilInterrupted();
  await watcher.close();
  return exitCodes.ok;
}

function describeChanges(changes: FileChange[]): string {
  if (changes.length === 0) return 'rendered: no change';
  const lines = [`rendered: ${changes.length} file(s) changed`];
  for (const c of changes.slice(0, 50)) lines.push(`  ${c.change.padEnd(7)} ${c.cluster}/${c.path}`);
  if (changes.length > 50) lines.push(`  … and ${changes.length - 50} more`);
  return lines.join('\n');
}
