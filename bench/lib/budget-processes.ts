// The budget scenario's processes and pushes (bench/budget.ts): the source push as a person makes
// it (429 and Retry-After honoured), the agents' processes (bench/lib/budget-agents.ts, many agents
// each) with their events gathered, and the agents' timing as the github profile sets it.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { profileDefaults } from '../../src/cli/forge-profile.js';
import { parseInterval } from '../../src/cli/parse-interval.js';
import { git } from '../../test/git-server/git-cli.js';
import type { BudgetAgentsSettings } from './budget-agents.js';

const tracing = process.env['GITFLEET_BENCH_TRACE'] !== undefined;

const agentsScript = fileURLToPath(new URL('./budget-agents.js', import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the agents reported, by cluster: value → when. */
export interface Events {
  applied: Map<string, Map<string, number>>;
  status: Map<string, Map<string, number>>;
}

/**
 * Pushes HEAD to main as a person (or CI) would: `git push`, and on an answer 429 waits what its
 * Retry-After says (read from git's own HTTP trace) and pushes again, up to 10 times.
 */
export async function pushAsAPerson(
  work: string,
  url: string,
  log: (line: string) => void,
): Promise<{ refused: number; waitedMs: number }> {
  let waitedMs = 0;
  for (let refused = 0; ; refused++) {
    try {
      await git(work, ['push', '-q', url, 'HEAD:main'], { GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' });
      return { refused, waitedMs };
    } catch (error) {
      const stderr = String((error as { stderr?: string }).stderr ?? error);
      if (!/\b429\b/.test(stderr) || refused >= 10) throw error;
      const retryAfter = /Retry-After: (\d+)/i.exec(stderr);
      const ms = retryAfter ? Number(retryAfter[1]) * 1000 : 10_000;
      log(`budget: the source push was answered 429; pushing again in ${ms / 1000} s (Retry-After)`);
      waitedMs += ms;
      await sleep(ms);
    }
  }
}

/**
 * Starts one process of agents; their events go into `got`, their stderr into `logFile`; `nice`
 * above 0 runs it at that niceness (the background agents of `--observe`).
 */
export function startAgents(
  settings: BudgetAgentsSettings,
  got: Events,
  logFile: string,
  nice = 0,
): { pid: number; stop: () => Promise<void> } {
  const child = spawn(process.execPath, [agentsScript, JSON.stringify(settings)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (nice > 0) setPriority(child.pid!, nice);
  const errors: string[] = [];
  // GITFLEET_BENCH_TRACE=1 (with GITFLEET_BENCH_KEEP=1): every agent event, in `<logFile>.events`.
  const trace = tracing ? ([] as string[]) : undefined;
  child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const e = JSON.parse(line) as { type: string; cluster: string; value?: string; at: number };
      trace?.push(line);
      const into = e.type === 'applied' ? got.applied : e.type === 'status' ? got.status : undefined;
      if (into === undefined || e.value === undefined) continue;
      const seen = into.get(e.cluster) ?? new Map<string, number>();
      if (!seen.has(e.value)) seen.set(e.value, e.at);
      into.set(e.cluster, seen);
    }
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(killer);
      writeFileSync(logFile, errors.join(''));
      if (trace !== undefined) writeFileSync(`${logFile}.events`, trace.join('\n'));
    },
  };
}

/** The agents' timing: the github profile with the doorbell, as `gitfleet agent --forge github --notify-url` takes it. */
export function githubAgentTiming() {
  const profile = profileDefaults('github', 'agent', true);
  const ms = (flag: string) => parseInterval(profile[flag] ?? '') ?? Number.NaN;
  return {
    intervalMs: ms('interval'),
    branchPollMs: ms('branch-poll'),
    safetyPollMs: ms('safety-poll'),
    doorbellHeartbeatMs: ms('doorbell-heartbeat'),
    pushSpreadMs: ms('push-spread'),
    leaseDurationMs: ms('cluster-lease-duration'),
    renewFraction: Number(profile['cluster-lease-renew-interval-fraction']),
    statusUpdateFrequencyMs: ms('cluster-status-update-frequency'),
  };
}
