// The one argument parser of the CLI. A command declares its positionals and flags (type,
// default, allowed values, help text) and its exit codes; from that one declaration come the
// parsed, typed values, every usage error (an unknown flag named, a missing required flag, a
// value of the wrong form) and the command's usage line and `--help` text.
import { parseArgs } from 'node:util';
import { wrapText } from './wrap-text.js';
import { escapeText } from '../core/model/quote-text.js';
import { formatExitCodes, type CommandName } from './exit-codes.js';
import { parseInterval } from './parse-interval.js';
import { UsageError } from './usage-error.js';

/** One flag: `--name VALUE` (or `--name` for a boolean). */
export interface FlagSpec {
  /**
   * `duration`: Go's form (30s, 5m, 1m30s, 500ms), parsed to milliseconds; `port`: 0 to 65535;
   * `fraction`: a number above 0 and at most 1 (0.25).
   */
  type: 'string' | 'boolean' | 'duration' | 'port' | 'fraction';
  /** The value's name in usage lines (`DIR`, `PATH|URL`); the choices when there are some. */
  value?: string;
  /** One letter: `-l` for `--selector`. */
  short?: string;
  /** The value when the flag is not given (as it would be typed). */
  default?: string;
  /** The only values allowed, in the order messages list them. */
  choices?: readonly string[];
  required?: boolean;
  help: string;
}

/** One positional argument. */
export interface PositionalSpec {
  name: string;
  help: string;
  optional?: boolean;
  /** The last positional only: one or more values (`CLUSTER...`). */
  variadic?: boolean;
}

/** Everything a command says about its command line. */
export interface CommandSpec {
  name: CommandName;
  /** One line: what the command does. */
  summary: string;
  positionals: readonly PositionalSpec[];
  flags: Readonly<Record<string, FlagSpec>>;
  /** Other usage lines (another form of the command), shown under the first. */
  forms?: readonly string[];
  /** Paragraphs `--help` prints after the flags. */
  notes?: readonly string[];
}

type ValueOf<F extends FlagSpec> = F extends { type: 'boolean' }
  ? boolean
  : F extends { type: 'duration' | 'port' | 'fraction' }
    ? number
    : F extends { choices: readonly (infer C)[] }
      ? C
      : string;

/** The parsed flags: a value for every flag with a default, a boolean for every boolean flag. */
export type FlagValues<T extends Readonly<Record<string, FlagSpec>>> = {
  -readonly [K in keyof T]: T[K] extends { type: 'boolean' } | { default: string } | { required: true }
    ? ValueOf<T[K]>
    : ValueOf<T[K]> | undefined;
};

/** Where a flag's value came from: typed, a forge profile's default, the spec's default (or none). */
export type FlagSource = 'given' | 'profile' | 'default';

/** What a command line parses to; `help` when it asked for `--help` (with the profile's defaults for what else was typed). */
export type ParsedCommandLine<S extends CommandSpec> =
  | { help: true; profileDefaults: Readonly<Record<string, string>> }
  | {
      help: false;
      values: FlagValues<S['flags']>;
      positionals: string[];
      /** For every flag of the spec: where its value came from. */
      sources: Record<keyof S['flags'], FlagSource>;
    };

/**
 * Defaults that replace the spec's for one run, chosen from what was typed (a forge profile
 * picked by --forge or the --repo URL): flag name → value as it would be typed. A flag typed
 * always wins.
 */
export type ProfileDefaults = (
  typed: Readonly<Record<string, string | boolean | undefined>>,
) => Readonly<Record<string, string>>;

const helpFlag: FlagSpec = { type: 'boolean', short: 'h', help: 'print this help and exit' };

/** Parses `args` by the spec; throws a UsageError naming the flag or argument at fault. */
export function parseCommandLine<S extends CommandSpec>(
  spec: S,
  args: readonly string[],
  profile?: ProfileDefaults,
): ParsedCommandLine<S> {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, flag] of Object.entries({ ...spec.flags, help: helpFlag })) {
    options[name] = {
      type: flag.type === 'boolean' ? 'boolean' : 'string',
      ...(flag.short ? { short: flag.short } : {}),
    };
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(parseArgsMessage(error));
  }
  const defaults = profile?.(parsed.values) ?? {};
  if (parsed.values['help'] === true) return { help: true, profileDefaults: defaults };
  const values: Record<string, unknown> = {};
  const sources: Record<string, FlagSource> = {};
  for (const [name, flag] of Object.entries(spec.flags)) {
    const typed = parsed.values[name];
    const fromProfile = typed === undefined && flag.type !== 'boolean' ? defaults[name] : undefined;
    sources[name] = typed !== undefined ? 'given' : fromProfile !== undefined ? 'profile' : 'default';
    values[name] = flagValue(
      name,
      fromProfile === undefined ? flag : { ...flag, default: fromProfile },
      typed,
    );
  }
  checkPositionals(spec, parsed.positionals);
  return {
    help: false,
    values: values as FlagValues<S['flags']>,
    positionals: parsed.positionals,
    sources: sources as Record<keyof S['flags'], FlagSource>,
  };
}

function flagValue(name: string, flag: FlagSpec, given: unknown): unknown {
  if (flag.type === 'boolean') return given === true;
  const text = typeof given === 'string' ? given : flag.default;
  if (text === undefined) {
    if (flag.required) throw new UsageError(`--${name} ${flag.value ?? 'VALUE'} is required`);
    return undefined;
  }
  const quoted = `'${escapeText(text)}'`;
  if (flag.choices && !flag.choices.includes(text)) {
    throw new UsageError(`--${name} must be ${listOf(flag.choices)}, not ${quoted}`);
  }
  if (flag.type === 'duration') {
    const ms = parseInterval(text);
    if (ms === undefined)
      throw new UsageError(`--${name} must be like 30s, 5m, 1m30s or 500ms, not ${quoted}`);
    return ms;
  }
  if (flag.type === 'fraction') {
    const value = /^\s*\d*\.?\d+\s*$/.test(text) ? Number(text) : NaN;
    if (!(value > 0 && value <= 1))
      throw new UsageError(`--${name} must be a number above 0 and at most 1, like 0.25, not ${quoted}`);
    return value;
  }
  if (flag.type === 'port') {
    const port = Number(text);
    if (!(text.trim() !== '' && Number.isInteger(port) && port >= 0 && port < 65536))
      throw new UsageError(`--${name} must be a port number, not ${quoted}`);
    return port;
  }
  return text;
}

function checkPositionals(spec: CommandSpec, positionals: readonly string[]): void {
  const max = spec.positionals.at(-1)?.variadic ? Infinity : spec.positionals.length;
  const min = spec.positionals.filter((p) => !p.optional).length;
  if (positionals.length > max) {
    throw new UsageError(`unexpected argument '${escapeText(positionals[max]!)}'`);
  }
  if (positionals.length < min) {
    throw new UsageError(`expected ${spec.positionals.map((p) => p.name).join(' ')}`);
  }
}

// node:util's messages name the flag; an unknown one is said the way the other errors are.
function parseArgsMessage(error: unknown): string {
  const { code, message } = error as { code?: unknown; message: string };
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /'([^']*)'/.exec(message)?.[1];
    if (flag !== undefined) return `unknown flag '${escapeText(flag)}'`;
  }
  return message;
}

function listOf(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** Returns the command's usage line: `gitfleet <name> <positionals> [--flag VALUE] …`. */
export function formatSynopsis(spec: CommandSpec): string {
  const parts = [`gitfleet ${spec.name}`];
  for (const p of spec.positionals.filter((p) => !p.optional))
    parts.push(p.variadic ? `${p.name}...` : p.name);
  for (const [name, flag] of Object.entries(spec.flags)) {
    const text = flag.short ? `-${flag.short}|${flagLabel(name, flag)}` : flagLabel(name, flag);
    parts.push(flag.required ? text : `[${text}]`);
  }
  for (const p of spec.positionals.filter((p) => p.optional)) parts.push(`[${p.name}]`);
  return wrapWords(parts, 100, ' '.repeat(`gitfleet ${spec.name} `.length + 4));
}

// Words (a flag with its value is one) never split across lines.
function wrapWords(words: readonly string[], width: number, indent: string): string {
  return wrapText(words.map((w) => w.replaceAll(' ', '\u00a0')).join(' '), width, indent).replaceAll(
    '\u00a0',
    ' ',
  );
}

function flagLabel(name: string, flag: FlagSpec): string {
  if (flag.type === 'boolean') return `--${name}`;
  return `--${name} ${flag.value ?? flag.choices?.join('|') ?? 'VALUE'}`;
}

/**
 * Returns the command's `--help`: usage, summary, every argument and flag, notes and exit codes.
 * A default the forge profile of the command line sets is shown as the default, with the spec's beside it.
 */
export function formatCommandHelp(
  spec: CommandSpec,
  profileDefaults: Readonly<Record<string, string>> = {},
): string {
  const rows: [string, string][] = spec.positionals.map((p) => [p.name, p.help]);
  for (const [name, flag] of Object.entries({ ...spec.flags, help: helpFlag })) {
    const label = `${flag.short ? `-${flag.short}, ` : ''}${flagLabel(name, flag)}`;
    const profiled = flag.type === 'boolean' ? undefined : profileDefaults[name];
    const shown =
      profiled !== undefined
        ? ` (default ${profiled}, from the forge profile; ${flag.default ?? 'none'} without it)`
        : flag.default === undefined
          ? ''
          : ` (default ${flag.default})`;
    rows.push([label, `${flag.help}${shown}`]);
  }
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return [
    `usage: ${formatSynopsis(spec)}`,
    ...(spec.forms ?? []).map((form) => `       ${form}`),
    '',
    spec.summary,
    '',
    ...rows.map(([label, help]) => wrapText(`  ${label.padEnd(width)}${help}`, 100, ' '.repeat(width + 2))),
    ...(spec.notes ?? []).flatMap((note) => ['', wrapText(note, 100, '')]),
    '',
    formatExitCodes(spec.name),
  ].join('\n');
}

/** Returns the usage line and the hint to `--help` printed under a usage error. */
export function formatUsageHint(spec: CommandSpec): string {
  return `usage: ${formatSynopsis(spec)}\n(gitfleet ${spec.name} --help for every flag and exit code)`;
}
