// The shape of a scenario's result, in the --json document and behind the text table.
import type { Spread } from './stats.js';

/** One contender's timings: median and spread over the repetitions, and its peak memory. */
export interface ContenderResult extends Spread {
  name: string;
  /** Which side it is on: gitfleet, or what users do without it. */
  side: 'gitfleet' | 'alternative';
  /** The largest peak RSS of its processes over the repetitions, when measured. */
  peakRssMiB: number | null;
  note?: string;
}

/** How much faster gitfleet was: the alternative's median over gitfleet's. */
export interface Ratio {
  /** What is compared, e.g. `first apply`; the scenario's name when it has one ratio. */
  label: string;
  /** alternative median / gitfleet median: above 1, gitfleet is faster. */
  value: number;
  gitfleet: string;
  alternative: string;
  /** The goal, e.g. `>= 20` or `>= 0.5` (within 2x). */
  target?: string;
  met?: boolean;
}

/** A scenario's outcome: skipped with a reason, or its contenders and ratio. */
export interface ScenarioReport {
  scenario: string;
  status: 'ran' | 'skipped' | 'failed';
  /** Why it was skipped or failed, or what to know when reading the numbers. */
  note?: string;
  parameters: Record<string, unknown>;
  contenders: ContenderResult[];
  ratios: Ratio[];
  details?: Record<string, unknown>;
}

/** How a scenario is run. */
export interface ScenarioOptions {
  quick: boolean;
  /** Repetitions per contender. */
  runs: number;
  /** Progress lines (stderr). */
  log: (line: string) => void;
  /** `--clusters N`: the fleet size of the scenarios that take one (budget). */
  clusters?: number;
}

/** A named benchmark scenario. */
export interface Scenario {
  name: string;
  summary: string;
  run: (opts: ScenarioOptions) => Promise<ScenarioReport>;
}

/** Returns the ratio of the alternative's median to gitfleet's, checked against `atLeast` when given. */
export function ratioOf(opts: {
  label: string;
  gitfleet: ContenderResult;
  alternative: ContenderResult;
  atLeast?: number;
}): Ratio {
  const value = Math.round((opts.alternative.medianMs / opts.gitfleet.medianMs) * 100) / 100;
  return {
    label: opts.label,
    value,
    gitfleet: opts.gitfleet.name,
    alternative: opts.alternative.name,
    ...(opts.atLeast === undefined ? {} : { target: `>= ${opts.atLeast}`, met: value >= opts.atLeast }),
  };
}

/** Returns a skipped scenario's report. */
export function skipped(
  scenario: string,
  note: string,
  parameters: Record<string, unknown> = {},
): ScenarioReport {
  return { scenario, status: 'skipped', note, parameters, contenders: [], ratios: [] };
}

/** Returns a failed scenario's report. */
export function failed(scenario: string, error: unknown): ScenarioReport {
  const note = error instanceof Error ? error.message : String(error);
  return { scenario, status: 'failed', note, parameters: {}, contenders: [], ratios: [] };
}

/** Returns the contender of that name; throws when there is none (a scenario's own bug). */
export function contender(results: readonly ContenderResult[], name: string): ContenderResult {
  const found = results.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no contender ${name}`);
  return found;
}
