import { escapeText } from '../core/model/quote-text.js';
import { UsageError } from './usage-error.js';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { runHub } from './commands/hub.js';
import { parseInterval } from './parse-interval.js';
import { diffUsage, runDiffCommand } from './commands/diff.js';
import { logUsage, runLogCommand } from './commands/log.js';
import { runRender } from './commands/render.js';
import { agentUsage, runAgentCommand } from './commands/agent.js';
import { runStatusCommand, statusUsage } from './commands/status.js';
import { runValidate } from './commands/validate.js';
import { processIo, type Io } from './io.js';
import { printError, reportOfError, wantsJson } from './print-error.js';

const usage = `usage:
  gitfleet render <source> [--ref REF] --out DIR [--output text|json]   render every cluster into DIR/<cluster>/
  gitfleet render <source> --watch --out DIR                             re-render on every save
  gitfleet validate <source> [--ref REF] [--output text|json]            check a fleet repo (exit 1 on errors)
  ${diffUsage}
  ${logUsage}
  gitfleet hub --repo PATH|URL [--source-ref main] [--once] [--interval 30s] [--output text|json]
               [--token-file F] [--cache-dir D] [--webhook-port P [--webhook-addr A] --webhook-secret-file F]
               [--branch-prefix gitfleet/]                                render the source branch into the hub's branches
  ${agentUsage}
  ${statusUsage}

<source> is a directory. With --ref (or when it is a bare repository) the fleet is read from
that commit's git objects; otherwise from the files on disk.
hub --once exits 0 when the pass succeeded, 1 when the source does not load (nothing written),
3 when the pass was written with error diagnostics (e.g. a refused mass deletion).`;

/** Runs the command line and returns the process exit code. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  const json = wantsJson(rest);
  try {
    switch (command) {
      case 'render':
        return await render(rest, io);
      case 'validate':
        return await validate(rest, io);
      case 'diff':
        return await runDiffCommand(rest, io);
      case 'log':
        return await runLogCommand(rest, io);
      case 'hub':
        return await hub(rest, io);
      case 'agent':
        return await runAgentCommand(rest, io);
      case 'status':
        return await runStatusCommand(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(usage);
        return command === undefined ? 2 : 0;
      default: {
        const message = `unknown command '${escapeText(String(command))}'`;
        printError(io, {
          json,
          text: `gitfleet: ${message}\n${usage}`,
          report: { code: 'UsageError', message },
        });
        return 2;
      }
    }
  } catch (error) {
    if (error instanceof UsageError) {
      const text = `gitfleet ${command}: ${error.message}\n${usage}`;
      printError(io, { json, text, report: { code: 'UsageError', message: error.message } });
      return 2;
    }
    const text = `gitfleet ${command}: ${(error as Error).message}`;
    printError(io, { json, text, report: reportOfError(error) });
    return 1;
  }
}

function parse(args: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function outputFormat(value: unknown): 'text' | 'json' {
  if (value === undefined || value === 'text') return 'text';
  if (value === 'json') return 'json';
  throw new UsageError(`--output must be text or json, not '${escapeText(String(value))}'`);
}

function oneSource(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError('expected exactly one <source>');
  return positionals[0]!;
}

async function render(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    ref: { type: 'string' },
    out: { type: 'string' },
    output: { type: 'string' },
    watch: { type: 'boolean' },
  });
  if (typeof values.out !== 'string') throw new UsageError('--out DIR is required');
  return runRender(
    {
      source: oneSource(positionals),
      ...(typeof values.ref === 'string' ? { ref: values.ref } : {}),
      out: values.out,
      output: outputFormat(values.output),
      watch: values.watch === true,
    },
    io,
  );
}

async function validate(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { ref: { type: 'string' }, output: { type: 'string' } });
  return runValidate(
    {
      source: oneSource(positionals),
      ...(typeof values.ref === 'string' ? { ref: values.ref } : {}),
      output: outputFormat(values.output),
    },
    io,
  );
}

async function hub(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    repo: { type: 'string' },
    'source-ref': { type: 'string' },
    once: { type: 'boolean' },
    interval: { type: 'string' },
    output: { type: 'string' },
    'token-file': { type: 'string' },
    'cache-dir': { type: 'string' },
    'webhook-port': { type: 'string' },
    'webhook-addr': { type: 'string' },
    'webhook-secret-file': { type: 'string' },
    'branch-prefix': { type: 'string' },
  });
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument '${escapeText(String(positionals[0]))}'`);
  if (typeof values.repo !== 'string') throw new UsageError('--repo PATH|URL is required');
  const webhookPort = values['webhook-port'] === undefined ? undefined : Number(values['webhook-port']);
  if (
    webhookPort !== undefined &&
    !(Number.isInteger(webhookPort) && webhookPort >= 0 && webhookPort < 65536)
  )
    throw new UsageError(
      `--webhook-port must be a port number, not '${escapeText(String(values['webhook-port']))}'`,
    );
  const intervalMs = parseInterval(typeof values.interval === 'string' ? values.interval : '30s');
  if (intervalMs === undefined)
    throw new UsageError(
      `--interval must be like 30s, 5m or 500ms, not '${escapeText(String(values.interval))}'`,
    );
  return runHub(
    {
      repo: values.repo,
      sourceRef: typeof values['source-ref'] === 'string' ? values['source-ref'] : 'main',
      once: values.once === true,
      intervalMs,
      output: outputFormat(values.output),
      ...(typeof values['token-file'] === 'string' ? { tokenFile: values['token-file'] } : {}),
      ...(typeof values['cache-dir'] === 'string' ? { cacheDir: values['cache-dir'] } : {}),
      ...(webhookPort !== undefined ? { webhookPort } : {}),
      ...(typeof values['webhook-addr'] === 'string' ? { webhookAddr: values['webhook-addr'] } : {}),
      ...(typeof values['branch-prefix'] === 'string' ? { branchPrefix: values['branch-prefix'] } : {}),
      ...(typeof values['webhook-secret-file'] === 'string'
        ? { webhookSecretFile: values['webhook-secret-file'] }
        : {}),
    },
    io,
  );
}
