// What `gitfleet budget` advises for the budget scenario's fleet (bench/budget.ts): the command
// itself, run as a user runs it (`gitfleet budget --repo … --clusters N --forge github --doorbell
// --webhook --status-lag D --fetch-spread 1s -o json`), so the bench builds the fleet the model
// prices: as many status and render repositories as it lists, and its push → applied to compare.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../../bin/gitfleet.js', import.meta.url));

/** The advice, and the model's figures for the same settings. */
export interface BudgetAdvice {
  statusRepositories: number;
  renderRepositories: number;
  /** The command line, for the report. */
  command: string;
  model: { pushToAppliedSeconds: { p50: number; p99: number }; pacing?: Record<string, number> };
}

/** Runs `gitfleet budget` over `repo` (any repository: --clusters prices the size) and reads its JSON. */
export function budgetAdvice(opts: {
  repo: string;
  clusters: number;
  statusLagSeconds: number;
  fetchSpreadSeconds: number;
}): BudgetAdvice {
  const args = [
    ...['budget', '--repo', opts.repo, '--clusters', String(opts.clusters), '--forge', 'github'],
    ...['--doorbell', '--webhook', '--status-lag', `${opts.statusLagSeconds}s`],
    ...['--fetch-spread', `${opts.fetchSpreadSeconds}s`, '-o', 'json'],
  ];
  const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  // Exit 1 is "over budget": the JSON is printed all the same.
  if (run.status !== 0 && run.status !== 1)
    throw new Error(`gitfleet ${args.join(' ')}: exit ${run.status}: ${run.stderr}`);
  const json = JSON.parse(run.stdout) as {
    repositories: { role: string }[];
    pushToAppliedSeconds: { p50: number; p99: number };
    pacing?: Record<string, number>;
  };
  const count = (role: string) => json.repositories.filter((r) => r.role === role).length;
  return {
    statusRepositories: count('status'),
    renderRepositories: count('render'),
    command: `gitfleet ${args.join(' ').replace(opts.repo, '<fleet>')}`,
    model: {
      pushToAppliedSeconds: json.pushToAppliedSeconds,
      ...(json.pacing ? { pacing: json.pacing } : {}),
    },
  };
}
