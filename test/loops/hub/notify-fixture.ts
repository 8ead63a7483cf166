// Helpers of the notifier's tests (notify-*.test.ts): a worker on a real repository with a fake
// clock, delivering to real local HTTP receivers through the webhook receiver, its metrics kept.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpReceiver } from '../../../src/adapters/notify/http-receiver.js';
import { startNotifyWorker, type NotifyWorker } from '../../../src/loops/hub/notify-worker.js';
import { localHubRepo } from '../../../src/adapters/remote/hub-repo.js';
import type { Logger } from '../../../src/loops/runtime/logger.js';
import type { Metrics, NotificationReport } from '../../../src/loops/runtime/metrics.js';
import { noMetrics } from '../../../src/loops/runtime/metrics.js';
import { fakeClock, type FakeClock } from '../runtime/fake-clock.js';
import { tempDir } from '../../support/temp-dirs.js';

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
  opts: { maxBacklog?: number; timeoutMs?: number; clock?: FakeClock } = {},
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
    receiverOf: (policy, spec) =>
      spec.type === 'webhook'
        ? httpReceiver({
            policy: policy.name,
            spec: { ...spec, type: 'webhook' },
            secrets: { dir: secrets },
            timeoutMs: opts.timeoutMs ?? 5000,
          })
        : undefined,
  });
  return { worker, clock, reports, lines };
}
