// The model's figures against a forge's budget, and what to change when a repository is over:
// the advice names the flag or the setting and the value that would fit, figured from the same
// model terms (agents' polls dominate reads, heartbeats dominate pushes).
import { forgeBudget, type Forge, type ForgeBudget } from './forge-budget.js';
import type { RepositoryTraffic, TrafficModel } from './model-traffic.js';
import type { TrafficSettings } from './traffic-settings.js';

/** GitHub advises keeping a repository under this many branches. */
export const githubBranchAdvice = 5000;

/** One repository judged. */
export interface JudgedRepository {
  repository: RepositoryTraffic;
  budget: ForgeBudget;
  within: boolean;
}

/** The model judged against the forge. */
export interface BudgetVerdict {
  forge: Forge;
  repositories: JudgedRepository[];
  within: boolean;
  /** What to change, one sentence each; empty when everything fits. */
  advice: string[];
  /** What fits the budget but costs elsewhere (pacing that holds heartbeats past the grace period). */
  warnings: string[];
}

/** Returns whether each repository fits the forge's budget, and advice for those that do not. */
export function judgeBudget(forge: Forge, model: TrafficModel, settings: TrafficSettings): BudgetVerdict {
  const budget = forgeBudget(forge);
  const repositories = model.repositories.map((repository) => ({
    repository,
    budget,
    within: fits(repository, budget),
  }));
  const advice = repositories.flatMap((r) => (r.within ? [] : adviceFor(r, settings)));
  if (forge === 'github')
    for (const r of model.repositories)
      if (r.refs > githubBranchAdvice)
        advice.push(
          `${r.name}: ${r.refs} refs, past GitHub's advice of ${githubBranchAdvice} branches a repository: use more status repositories`,
        );
  return {
    forge,
    repositories,
    within: repositories.every((r) => r.within),
    advice: [...new Set(advice)],
    warnings: graceWarnings(model, settings),
  };
}

/**
 * Without the doorbell's beacons the hub hears an agent only when it pushes; pacing that holds
 * its pushes longer than the grace period would have the hub judge live clusters not Ready.
 */
function graceWarnings(model: TrafficModel, s: TrafficSettings): string[] {
  if (s.doorbell) return [];
  const held = Math.max(s.agent.heartbeatSeconds, model.pacing.statusLagSeconds);
  const grace = s.hub.monitorGracePeriodSeconds;
  if (held <= grace) return [];
  return [
    `pacing holds each agent's pushes up to ${held}s apart, past the hub's --cluster-monitor-grace-period ${grace}s: live clusters would be judged not Ready; use the doorbell's beacons, more status repositories, or a longer grace period`,
  ];
}

function fits(r: RepositoryTraffic, budget: ForgeBudget): boolean {
  const { readsPerSecond, pushesPerMinute } = r.total;
  if (readsPerSecond > budget.readsPerSecond || pushesPerMinute > budget.pushesPerMinute) return false;
  const shared = budget.sharedOperationsPerMinute;
  return shared === undefined || readsPerSecond * 60 + pushesPerMinute <= shared;
}

// Advice aims at 80% of the budget, so that a little churn does not tip the repository over.
function adviceFor(judged: JudgedRepository, s: TrafficSettings): string[] {
  const { repository: r, budget } = judged;
  const advice: string[] = [];
  const readBudget = Math.min(budget.readsPerSecond, (budget.sharedOperationsPerMinute ?? Infinity) / 60);
  if (r.total.readsPerSecond > readBudget || budget.sharedOperationsPerMinute !== undefined) {
    const readers = r.branchClusters;
    const others = r.total.readsPerSecond - r.by.agents.readsPerSecond;
    const room = 0.8 * readBudget - others - readers / s.agent.intervalSeconds;
    if (readers > 0) {
      const poll = room > 0 ? Math.ceil(readers / room) : undefined;
      const flag = s.doorbell ? '--safety-poll' : '--branch-poll';
      const renders = Math.ceil(
        (r.total.readsPerSecond * Math.max(1, s.renderRepositories)) / (0.8 * readBudget),
      );
      advice.push(
        poll === undefined
          ? `${r.name}: reads: the agents' resync passes alone spend the budget: a longer agent --interval, or ${renders} render repositories`
          : `${r.name}: reads: agent ${flag} ${poll}s or longer${s.doorbell ? '' : ', or the doorbell (--notify-url) with a slow --safety-poll'}, or ${renders} render repositories`,
      );
    }
  }
  const shared = budget.sharedOperationsPerMinute;
  const pushesOver =
    r.total.pushesPerMinute > budget.pushesPerMinute ||
    (shared !== undefined &&
      r.total.readsPerSecond * 60 + r.total.pushesPerMinute > shared &&
      r.total.pushesPerMinute > 0);
  if (pushesOver) {
    const heartbeatsPerMinute = (60 * r.statusClusters) / s.agent.heartbeatSeconds;
    if (heartbeatsPerMinute > 0) {
      const perRepo = 0.8 * budget.pushesPerMinute;
      const repos = Math.ceil((r.total.pushesPerMinute * Math.max(1, s.statusRepositories)) / perRepo);
      // Only when the other pushes leave room can a slower heartbeat (or none, with beacons) fit.
      const room = perRepo - (r.total.pushesPerMinute - heartbeatsPerMinute);
      const slower =
        room > 0
          ? `, or a heartbeat every ${Math.ceil((60 * r.statusClusters) / room)}s or more (--cluster-lease-duration × --cluster-lease-renew-interval-fraction, at the cost of NotReady detection)`
          : '';
      const beacons = room > 0 ? ", or the doorbell's beacons" : '';
      advice.push(`${r.name}: pushes: ${repos} status repositories${slower}${beacons}`);
    } else advice.push(`${r.name}: pushes: fewer source pushes or status changes an hour`);
  }
  return advice;
}
