// The entry point: picks the command and runs it (run-command.ts), every command declared the
// same way (command-line.ts) and exiting with the codes of one table (exit-codes.ts).
import { escapeText } from '../core/model/quote-text.js';
import type { LogFields, Logger } from '../loops/runtime/logger.js';
import { agentCommand } from './commands/agent.js';
import { budgetCommand } from './commands/budget.js';
import { clusterJoinCommand } from './commands/cluster-join.js';
import { clusterLeaveCommand } from './commands/cluster-leave.js';
import { diffCommand } from './commands/diff.js';
import { hubCommand } from './commands/hub.js';
import { logCommand } from './commands/log.js';
import { renderCommand } from './commands/render.js';
import { statusCommand } from './commands/status.js';
import { uiCommand } from './commands/ui.js';
import { validateCommand } from './commands/validate.js';
import { formatCommandHelp, formatSynopsis, type CommandSpec } from './command-line.js';
import { exitCodes, formatExitCodes } from './exit-codes.js';
import { processIo, type Io } from './io.js';
import { installLastResort } from './last-resort.js';
import { redactUrl } from '../adapters/remote/redact-secrets.js';
import { printError, wantsJson } from './print-error.js';
import { runCommand, type Command } from './run-command.js';

/** Every command, in the order the usage lists them. */
const commands: readonly Command<CommandSpec>[] = [
  renderCommand,
  validateCommand,
  diffCommand,
  logCommand,
  hubCommand,
  agentCommand,
  statusCommand,
  uiCommand,
  budgetCommand,
  clusterJoinCommand,
  clusterLeaveCommand,
] as unknown as readonly Command<CommandSpec>[];

/** Returns the top-level usage: each command's usage line and summary, then the exit codes. */
export function formatUsage(): string {
  const lines = ['usage:'];
  for (const { spec } of commands) lines.push(`  ${formatSynopsis(spec)}`, `      ${spec.summary}`);
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
  const command = commands.find((c) => c.spec.name === name);
  if (command) return runCommand(command, rest, io);
  // Two-word commands (`cluster join`): the second word picks the command.
  const pair = commands.find((c) => c.spec.name === `${name} ${rest[0]}`);
  if (pair) return runCommand(pair, rest.slice(1), io);
  switch (name) {
    case undefined:
      io.out(formatUsage());
      return exitCodes.usage;
    case 'help':
    case '--help':
    case '-h':
      return help(rest, io);
    default: {
      const message = `unknown command '${escapeText(String(name))}'`;
      printError(io, {
        json: wantsJson(rest),
        text: `gitfleet: ${message}\n${formatUsage()}`,
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

/** The last resort's logger before a command has its own: stderr, JSON with --log-format json. */
function stderrLogger(io: Io, command: string, json: boolean): Logger {
  const line = (level: string) => (message: string, fields?: LogFields) =>
    io.err(
      redactUrl(
        json
          ? JSON.stringify({ time: new Date().toISOString(), level, speaker: command, ...fields, message })
          : message,
      ),
    );
  return { info: line('info'), warn: line('warning'), error: line('error') };
}

function help(words: readonly string[], io: Io): number {
  const topic =
    words.length > 1 && commands.some((c) => c.spec.name === words.slice(0, 2).join(' '))
      ? words.slice(0, 2).join(' ')
      : words[0];
  if (topic === undefined) {
    io.out(formatUsage());
    return exitCodes.ok;
  }
  const command = commands.find((c) => c.spec.name === topic);
  if (!command) {
    io.err(`gitfleet help: unknown command '${escapeText(topic)}'\n${formatUsage()}`);
    return exitCodes.usage;
  }
  io.out(formatCommandHelp(command.spec));
  return exitCodes.ok;
}
