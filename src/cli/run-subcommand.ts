import type { Io } from './io.js';

/**
 * Parses a subcommand's arguments and runs it, with the exit codes every subcommand shares:
 * a usage error (a message returned or an error thrown by `parse`, e.g. node's parseArgs on an
 * unknown option) prints the message and the command's usage and exits 2; an error thrown
 * while running prints its message and exits 1; otherwise `run`'s own code.
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
  let parsed: T | string;
  try {
    parsed = opts.parse(opts.args);
  } catch (error) {
    parsed = (error as Error).message;
  }
  if (typeof parsed === 'string') {
    io.err(`gitfleet ${opts.name}: ${parsed}\nusage: ${opts.usage}`);
    return 2;
  }
  try {
    return await opts.run(parsed, io);
  } catch (error) {
    io.err(`gitfleet ${opts.name}: ${(error as Error).message}`);
    return 1;
  }
}
