// Helpers of the notifier's tests (notify-*.test.ts): a worker on a real repository with a fake
// clock, delivering to real local HTTP receivers through the webhook receiver, its metrics kept;
// a small fleet repository and hand-made commits on its branches (the notifier reads commits).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forgeReceiver } from '../../../src/adapters/notify/forge-receiver.js';
import { httpReceiver } from '../../../src/adapters/notify/http-receiver.js';
import {
  startNotifyWorker,
  type NotifyWorker,
  type StatusBranches,
} from '../../../src/loops/hub/notify-worker.js';
import { localHubRepo } from '../../../src/adapters/remote/hub-repo.js';
import type { Logger } from '../../../src/loops/runtime/logger.js';
import type { Metrics, NotificationReport } from '../../../src/loops/runtime/metrics.js';
import { noMetrics } from '../../../src/loops/runtime/metrics.js';
import { fakeClock, type FakeClock } from '../runtime/fake-clock.js';
import { tempDir } from '../../support/temp-dirs.js';
import { runGit } from '../../support/run-git.js';
import type { HubPassResult } from '../../../src/loops/hub/hub-pass-result.js';
import {
  statusCommitMessage,
  type StatusCommitInput,
} from '../../../src/core/apply-plan/status-commit-message.js';

export const hmacKey = 'notify-test-key';

/** A NotificationPolicy text with one webhook receiver `hook` (its URL and key in files) and the routes given. */
export function policyText(routes: string[]): string {
  return [
    'apiVersion: gitfleet.io/v1alpha1',
    'kind: NotificationPolicy',
    'metadata: {name: ops}',
    'spec:',
    '  receivers:',
    '  - {name: hook, type: webhook, urlFile: hook-url, hmacKeyFile: hook-key}',
    '  routes:',
    ...routes.map((r) => `  - ${r}`),
    '',
  ].join('\n');
}

/** A secrets directory holding the receiver's URL and HMAC key. */
export function secretsFor(url: string): string {
  const dir = tempDir('notify-secrets');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'hook-url'), `${url}/hook/secret-path\n`);
  writeFileSync(join(dir, 'hook-key'), hmacKey);
  return dir;
}

/** What a test sees of a worker: it, its clock, its metrics' reports and its log lines. */
export interface TestWorker {
  worker: NotifyWorker;
  clock: FakeClock;
  reports: NotificationReport[];
  lines: string[];
}

/** Starts a worker on the repository at `path`, with receivers reading secrets from `secrets`. */
export function testWorker(
  path: string,
  secrets: string,
  opts: {
    maxBacklog?: number;
    timeoutMs?: number;
    clock?: FakeClock;
    statusRepositories?: StatusBranches;
  } = {},
): TestWorker {
  const clock = opts.clock ?? fakeClock();
  const reports: NotificationReport[] = [];
  const lines: string[] = [];
  const log: Logger = {
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
  const metrics: Metrics = { ...noMetrics(), notification: (r) => reports.push(r) };
  const worker = startNotifyWorker({
    repo: localHubRepo(path),
    branchPrefix: 'gitfleet/',
    clock,
    random: () => 0.5,
    log,
    metrics,
    author: () => ({
      name: 'gitfleet',
      email: 'hub@gitfleet.invalid',
      time: 1_700_000_000,
      tzOffsetMinutes: 0,
    }),
    ...(opts.maxBacklog ? { maxBacklog: opts.maxBacklog } : {}),
    ...(opts.statusRepositories ? { statusRepositories: opts.statusRepositories } : {}),
    receiverOf: (policy, spec) =>
      spec.type === 'webhook'
        ? httpReceiver({
            policy: policy.name,
            spec,
            secrets: { dir: secrets },
            timeoutMs: opts.timeoutMs ?? 5000,
          })
        : spec.type === 'github' || spec.type === 'gitea'
          ? forgeReceiver({ policy: policy.name, spec, secrets: { dir: secrets } })
          : undefined,
  });
  return { worker, clock, reports, lines };
}

const cluster = (name: string, env: string) =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${name}, labels: {env: ${env}}}\nspec: {syncMode: Pull}\n`;

/** A repository whose main holds two clusters and the policy; returns it and its source commit. */
export function notifyRepo(routes: string[]): { dir: string; source: string } {
  const dir = tempDir('notify-repo');
  runGit(['init', '-q', '-b', 'main', dir]);
  mkdirSync(join(dir, 'clusters'));
  writeFileSync(join(dir, 'clusters/member1.yaml'), cluster('member1', 'prod'));
  writeFileSync(join(dir, 'clusters/member2.yaml'), cluster('member2', 'dev'));
  writeFileSync(join(dir, 'notify.yaml'), policyText(routes));
  runGit(['add', '-A'], { cwd: dir });
  runGit(['commit', '-q', '-m', 'fleet'], { cwd: dir });
  return { dir, source: runGit(['rev-parse', 'HEAD'], { cwd: dir }) };
}

/** Adds a commit of the empty tree with this message on top of `ref` (or as its first); returns it. */
export function appendCommit(repo: { dir: string }, ref: string, message: string): string {
  const tree = runGit(['mktree'], { cwd: repo.dir, input: '' });
  let parent: string[];
  try {
    parent = ['-p', runGit(['rev-parse', '--verify', '-q', ref], { cwd: repo.dir })];
  } catch {
    parent = [];
  }
  const commit = runGit(['commit-tree', tree, ...parent, '-m', message], { cwd: repo.dir });
  runGit(['update-ref', ref, commit], { cwd: repo.dir });
  return commit;
}

/** Adds a bindings commit with these trailers; returns it. */
export function bindingsCommit(repo: { dir: string; source: string }, trailers: string[]): string {
  const message = `render: x\n\nGitfleet-Source-Commit: ${repo.source}\n${trailers.join('\n')}\n`;
  return appendCommit(repo, 'refs/heads/gitfleet/bindings', message);
}

/** The result of a pass that found the source up to date at `source`. */
export const upToDate = (source: string) =>
  ({
    type: 'upToDate',
    source: { ref: 'refs/heads/main', commit: source, subject: 'x', message: 'x' },
  }) as HubPassResult;

/** Adds a status commit of member1 on its status branch, as the agent writes them (fully applied, 10,000 objects, unless `given` says otherwise); returns it. */
export function member1StatusCommit(repo: { dir: string }, given: Partial<StatusCommitInput>): string {
  const message = statusCommitMessage({
    cluster: 'member1',
    commit: '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d',
    fullyApplied: true,
    tombstoned: false,
    objects: 10_000,
    failures: [],
    notes: [],
    ...given,
  });
  return appendCommit(repo, 'refs/heads/gitfleet/status/member1', message);
}
