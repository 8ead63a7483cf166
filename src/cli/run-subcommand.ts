import type { Io } from './io.js';
import { printError, reportOfError, wantsJson } from './print-error.js';

/**
 * Parses a subcommand's arguments and runs it, with the exit codes every subcommand shares:
 * a usage error (a message returned or an error thrown by `parse`, e.g. node's parseArgs on an
 * unknown option) prints the message and the command's usage and exits 2; an error thrown
 * while running prints its message and exits 1; otherwise `run`'s own code. With --output json
 * both come out as a JSON error object on stdout (print-error.ts).
 */
export async function runSubcommand<T>(opts: {
  name: string;
  usage: string;
  args: string[];
  io: Io;
  parse: (args: string[]) => T | string;
  run: (parsed: T, io: Io) => Promise<number>;
}): Promise<number> {
  const { io } = opts;
  const json = wantsJson(opts.args);
  let parsed: T | string;
  try {
    parsed = opts.parse(opts.args);
  } catch (error) {
    parsed = (error as Error).message;
  }
  if (typeof parsed === 'string') {
    const text = `gitfleet ${opts.name}: ${parsed}\nusage: ${opts.usage}`;
    printError(io, { json, text, report: { code: 'UsageError', message: parsed } });
    return 2;
  }
  try {
    return await opts.run(parsed, io);
  } catch (error) {
    printError(io, {
      json,
      text: `gitfleet ${opts.name}: ${(error as Error).message}`,
      report: reportOfError(error),
    });
    return 1;
  }
}
