// Runs one command: parses its command line by its spec (command-line.ts), prints its help, and
// turns what it throws into the exit codes of the table (exit-codes.ts): a UsageError, thrown by
// the parser or by the command, prints the message and the usage line and exits `usage`; any
// other error prints its message (subject first) and exits the command's `errorExit` (`failed`
// unless it says otherwise). With --output json either is one JSON error object on stdout
// (print-error.ts).
import {
  formatCommandHelp,
  formatUsageHint,
  parseCommandLine,
  type CommandSpec,
  type FlagSource,
  type FlagValues,
  type ProfileDefaults,
} from './command-line.js';
import { exitCodes, type ExitCodeName } from './exit-codes.js';
import { escapingIo } from './escaping-io.js';
import type { Io } from './io.js';
import { printError, reportOfError, wantsJson } from './print-error.js';
import { UsageError } from './usage-error.js';

/** A command: its command line and what it does with the parsed values. */
export interface Command<S extends CommandSpec = CommandSpec> {
  spec: S;
  /** The exit code of an error the command throws (default `failed`). */
  errorExit?: ExitCodeName;
  /** Defaults chosen from what was typed (a forge profile, forge-profile.ts); absent: the spec's. */
  defaults?: ProfileDefaults;
  /** Runs the command and returns its exit code (a number of the table). */
  run(
    line: {
      values: FlagValues<S['flags']>;
      positionals: string[];
      sources: Record<keyof S['flags'], FlagSource>;
    },
    io: Io,
  ): Promise<number>;
}

/**
 * A command as the table knows it before it runs (main.ts): its command line and defaults, from
 * modules that declare only those, and how to load the rest, so `--help` and a usage error cost
 * no command's code.
 */
export interface LazyCommand<S extends CommandSpec = CommandSpec> extends Pick<
  Command<S>,
  'spec' | 'defaults'
> {
  load(): Promise<Command<S>>;
}

/** Returns a command, typed by its spec. */
export function defineCommand<S extends CommandSpec>(command: Command<S>): Command<S> {
  return command;
}

/** Parses the arguments and runs the command (loaded first when lazy); returns the exit code. */
export async function runCommand<S extends CommandSpec>(
  command: Command<S> | LazyCommand<S>,
  args: readonly string[],
  given: Io,
): Promise<number> {
  const { spec } = command;
  let loaded: Command<S> | undefined;
  // Nothing from the fleet reaches the terminal raw (escaping-io.ts).
  const io = escapingIo(given);
  const json = wantsJson(args);
  try {
    const line = parseCommandLine(spec, args, command.defaults);
    if (line.help) {
      io.out(formatCommandHelp(spec, line.profileDefaults));
      return exitCodes.ok;
    }
    loaded = 'load' in command ? await command.load() : command;
    return await loaded.run(line, io);
  } catch (error) {
    if (error instanceof UsageError) {
      const text = `gitfleet ${spec.name}: ${error.message}\n${formatUsageHint(spec)}`;
      printError(io, { json, text, report: { code: error.code, message: error.message } });
      return exitCodes.usage;
    }
    const message = error instanceof Error ? error.message : String(error);
    printError(io, { json, text: `gitfleet ${spec.name}: ${message}`, report: reportOfError(error) });
    return exitCodes[loaded?.errorExit ?? 'failed'];
  }
}
