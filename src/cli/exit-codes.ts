// The exit codes of every command, in one table: the commands return these names' numbers, the
// top-level `--help` and each command's `--help` print the rows that apply, and
// test/cli/exit-codes.test.ts runs each command to each code it can produce.
//
// Every code has one meaning across all commands, so a script can act on the number alone: 0
// success, 1 failed, 2 usage error, and from 3 on the outcomes that are neither (as terraform's
// -detailed-exitcode gives a change its own code rather than reusing 1).
import { wrapText } from './wrap-text.js';

/** The names commands use; their numbers are the process's exit status. */
export const exitCodes = {
  ok: 0,
  failed: 1,
  usage: 2,
  writtenWithErrors: 3,
  tombstoned: 4,
  noClusterBranch: 5,
  changed: 6,
  sideDoesNotLoad: 7,
  crashed: 8,
} as const;

export type ExitCodeName = keyof typeof exitCodes;

/** The commands of the CLI, as the table names them. */
export type CommandName =
  | 'render'
  | 'validate'
  | 'diff'
  | 'log'
  | 'hub'
  | 'agent'
  | 'status'
  | 'ui'
  | 'budget'
  | 'cluster join'
  | 'cluster leave'
  | 'secrets recipients';

/** One row of the table: a code, what it means, and the commands that exit with it. */
export interface ExitCodeRow {
  name: ExitCodeName;
  code: number;
  commands: readonly CommandName[];
  meaning: string;
}

const every: readonly CommandName[] = [
  'render',
  'validate',
  'diff',
  'log',
  'hub',
  'agent',
  'status',
  'ui',
  'budget',
  'cluster join',
  'cluster leave',
  'secrets recipients',
];

/** Every exit code, with its meaning and the commands it applies to, in the order `--help` prints. */
export const exitCodeTable: readonly ExitCodeRow[] = [
  {
    name: 'ok',
    code: exitCodes.ok,
    commands: every,
    meaning:
      'success (hub --once: the pass succeeded with no error diagnostic; agent --once: the branch head is fully applied; diff: the rendered output does not change)',
  },
  {
    name: 'failed',
    code: exitCodes.failed,
    commands: every.filter((c) => c !== 'diff'),
    meaning:
      "failed: the fleet does not load (nothing written), validate found an error diagnostic, a pass failed (an object, a deletion, Git or the cluster, a source or cluster branch head not signed by a trusted key), budget found a repository over its forge's budget, cluster join or leave refused (a cluster registered already or not at all, an output that is not new), secrets recipients found a cluster without an age recipient, or another error, printed subject first",
  },
  {
    name: 'usage',
    code: exitCodes.usage,
    commands: every,
    meaning: 'usage error: an unknown flag or command, a missing or malformed argument',
  },
  {
    name: 'writtenWithErrors',
    code: exitCodes.writtenWithErrors,
    commands: ['hub'],
    meaning:
      'hub --once: the pass was written but carries error diagnostics (a refused deletion, a template no cluster fits, a failing override); what they concern kept its last good state',
  },
  {
    name: 'tombstoned',
    code: exitCodes.tombstoned,
    commands: ['agent'],
    meaning:
      'agent --once: the cluster branch is tombstoned (the cluster left the fleet); nothing applied, nothing deleted',
  },
  {
    name: 'noClusterBranch',
    code: exitCodes.noClusterBranch,
    commands: ['agent'],
    meaning: 'agent --once: the cluster branch does not exist yet; nothing applied',
  },
  {
    name: 'changed',
    code: exitCodes.changed,
    commands: ['diff'],
    meaning: 'diff: the rendered output changes',
  },
  {
    name: 'sideDoesNotLoad',
    code: exitCodes.sideDoesNotLoad,
    commands: ['diff'],
    meaning:
      'diff: no diff: a side does not load or cannot be read (its errors printed with ref, file and line)',
  },
  {
    name: 'crashed',
    code: exitCodes.crashed,
    commands: every,
    meaning:
      'crashed: an exception no part of gitfleet caught (a bug): logged, subject first, with its stack, then the process exits',
  },
];

/** Returns the rows of one command, or every row. */
export function exitCodeRows(command?: CommandName): ExitCodeRow[] {
  return exitCodeTable.filter((row) => command === undefined || row.commands.includes(command));
}

/** Returns the table as `--help` prints it: one line per row, the code first. */
export function formatExitCodes(command?: CommandName): string {
  const lines = ['exit codes:'];
  for (const row of exitCodeRows(command))
    lines.push(wrapText(`  ${row.code}  ${row.meaning}`, 100, '     '));
  return lines.join('\n');
}
