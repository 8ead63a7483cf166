// The entry point: picks the command and runs it (run-command.ts), every command declared the
// same way (command-line.ts) and exiting with the codes of one table (exit-codes.ts).
import { escapeText } from '../core/model/quote-text.js';
import type { LogFields, Logger } from '../loops/runtime/logger.js';
import { formatCommandHelp, formatSynopsis, type CommandSpec, type ProfileDefaults } from './command-line.js';
import { exitCodes, formatExitCodes, type CommandName } from './exit-codes.js';
import { processIo, type Io } from './io.js';
import { installLastResort } from './last-resort.js';
import { redactUrl } from '../adapters/remote/redact-secrets.js';
import { printError, wantsJson } from './print-error.js';
import { runCommand, type Command, type LazyCommand } from './run-command.js';
import { forgeDefaults } from './forge-profile.js';

/** A command's table entry: its spec module (and forge profile) at once, its code when it runs. */
function lazy<S extends CommandSpec>(
  spec: S,
  load: () => Promise<Command<S>>,
  defaults?: ProfileDefaults,
): LazyCommand<S> {
  return { spec, load, ...(defaults ? { defaults } : {}) };
}

/**
 * Every command, in the order the usage lists them: its command line from a module of
 * declarations only (commands/*-spec.ts), its code loaded when it runs, so `--help` and the usage
 * load no command's code and `gitfleet log` does not load the Kubernetes client.
 */
const commands: readonly (readonly [CommandName, () => Promise<LazyCommand>])[] = [
  [
    'render',
    async () =>
      lazy(
        (await import('./commands/render-spec.js')).renderSpec,
        async () => (await import('./commands/render.js')).renderCommand,
      ),
  ],
  [
    'validate',
    async () =>
      lazy(
        (await import('./commands/validate-spec.js')).validateSpec,
        async () => (await import('./commands/validate.js')).validateCommand,
      ),
  ],
  [
    'diff',
    async () =>
      lazy(
        (await import('./commands/diff-spec.js')).diffSpec,
        async () => (await import('./commands/diff.js')).diffCommand,
      ),
  ],
  [
    'log',
    async () =>
      lazy(
        (await import('./commands/log-spec.js')).logSpec,
        async () => (await import('./commands/log.js')).logCommand,
      ),
  ],
  [
    'hub',
    async () =>
      lazy(
        (await import('./commands/hub-spec.js')).hubSpec,
        async () => (await import('./commands/hub.js')).hubCommand,
        forgeDefaults('hub'),
      ),
  ],
  [
    'agent',
    async () =>
      lazy(
        (await import('./commands/agent-spec.js')).agentSpec,
        async () => (await import('./commands/agent.js')).agentCommand,
        forgeDefaults('agent'),
      ),
  ],
  [
    'status',
    async () =>
      lazy(
        (await import('./commands/status-spec.js')).statusSpec,
        async () => (await import('./commands/status.js')).statusCommand,
        forgeDefaults('status'),
      ),
  ],
  [
    'ui',
    async () =>
      lazy(
        (await import('./commands/ui-spec.js')).uiSpec,
        async () => (await import('./commands/ui.js')).uiCommand,
        forgeDefaults('ui'),
      ),
  ],
  [
    'budget',
    async () => {
      const { budgetSpec, budgetDefaults } = await import('./commands/budget-spec.js');
      return lazy(
        budgetSpec,
        async () => (await import('./commands/budget.js')).budgetCommand,
        budgetDefaults,
      );
    },
  ],
  [
    'cluster join',
    async () =>
      lazy(
        (await import('./commands/cluster-join-spec.js')).clusterJoinSpec,
        async () => (await import('./commands/cluster-join.js')).clusterJoinCommand,
      ),
  ],
  [
    'cluster leave',
    async () =>
      lazy(
        (await import('./commands/cluster-leave-spec.js')).clusterLeaveSpec,
        async () => (await import('./commands/cluster-leave.js')).clusterLeaveCommand,
      ),
  ],
  [
    'secrets recipients',
    async () =>
      lazy(
        (await import('./commands/secrets-recipients-spec.js')).secretsRecipientsSpec,
        async () => (await import('./commands/secrets-recipients.js')).secretsRecipientsCommand,
      ),
  ],
] as unknown as readonly (readonly [CommandName, () => Promise<LazyCommand>])[];

/** Returns the command of that name, its spec loaded, or undefined. */
function loadCommand(name: string | undefined): Promise<LazyCommand> | undefined {
  return commands.find(([n]) => n === name)?.[1]();
}

/** Returns the top-level usage: each command's usage line and summary, then the exit codes. */
export async function formatUsage(): Promise<string> {
  const lines = ['usage:'];
  for (const load of commands.map(([, l]) => l)) {
    const { spec } = await load();
    lines.push(`  ${formatSynopsis(spec)}`, `      ${spec.summary}`);
  }
  lines.push(
    '',
    'gitfleet <command> --help (or gitfleet help <command>) describes every argument and flag.',
    '',
    formatExitCodes(),
  );
  return lines.join('\n');
}

/** Runs the command line and returns the process exit code. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  const command = loadCommand(name);
  if (command) return runCommand(await command, rest, io);
  // Two-word commands (`cluster join`): the second word picks the command.
  const pair = loadCommand(`${name} ${rest[0]}`);
  if (pair) return runCommand(await pair, rest.slice(1), io);
  switch (name) {
    case undefined:
      io.out(await formatUsage());
      return exitCodes.usage;
    case 'help':
    case '--help':
    case '-h':
      return help(rest, io);
    default: {
      const message = `unknown command '${escapeText(String(name))}'`;
      printError(io, {
        json: wantsJson(rest),
        text: `gitfleet: ${message}\n${await formatUsage()}`,
        report: { code: 'UsageError', message },
      });
      return exitCodes.usage;
    }
  }
}

/**
 * Runs the command line as the process (bin/gitfleet.js): with the last-resort handlers
 * installed (last-resort.ts) and stdout's EPIPE guarded (io.ts); sets the exit code.
 */
export async function runMain(argv: string[]): Promise<void> {
  const io = processIo();
  const command = String(argv[0] ?? 'gitfleet');
  const json = argv.some(
    (a, i) => a === '--log-format=json' || (a === '--log-format' && argv[i + 1] === 'json'),
  );
  installLastResort({ command: escapeText(command), fallback: stderrLogger(io, command, json), json });
  process.exitCode = await main(argv, io);
}

/** The last resort's logger before a command has its own: stderr, stamped text or JSON with --log-format json. */
function stderrLogger(io: Io, command: string, json: boolean): Logger {
  const line = (level: string) => (message: string, fields?: LogFields) =>
    io.err(
      redactUrl(
        json
          ? JSON.stringify({ time: new Date().toISOString(), level, speaker: command, ...fields, message })
          : `${new Date().toISOString()} ${message}`,
      ),
    );
  return { info: line('info'), warn: line('warning'), error: line('error') };
}

async function help(words: readonly string[], io: Io): Promise<number> {
  const pair = words.slice(0, 2).join(' ');
  const topic = words.length > 1 && commands.some(([n]) => n === pair) ? pair : words[0];
  if (topic === undefined) {
    io.out(await formatUsage());
    return exitCodes.ok;
  }
  const command = loadCommand(topic);
  if (!command) {
    io.err(`gitfleet help: unknown command '${escapeText(topic)}'\n${await formatUsage()}`);
    return exitCodes.usage;
  }
  io.out(formatCommandHelp((await command).spec));
  return exitCodes.ok;
}
