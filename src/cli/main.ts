// The entry point: picks the command and runs it (run-command.ts), every command declared the
// same way (command-line.ts) and exiting with the codes of one table (exit-codes.ts).
import { escapeText } from '../core/model/quote-text.js';
import { agentCommand } from './commands/agent.js';
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
  switch (name) {
    case undefined:
      io.out(formatUsage());
      return exitCodes.usage;
    case 'help':
    case '--help':
    case '-h':
      return help(rest[0], io);
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

function help(topic: string | undefined, io: Io): number {
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
