// What `--metrics-addr`, `--log-format` and `--log-level` give the long-running commands (hub,
// agent): the logger, how a loop prints its pass results, the metrics the loops report to, the
// readiness the endpoint answers from, and the endpoint itself. Without --metrics-addr the
// metrics are the no-op and nothing listens.
import { readFileSync } from 'node:fs';
import type { MetricsServer } from '../adapters/http/metrics-server.js';
import type { Clock } from '../loops/runtime/clock.js';
import { isShown, type Logger, type LogLevel } from '../loops/runtime/logger.js';
import { noMetrics, type Metrics } from '../loops/runtime/metrics.js';
import { Readiness } from '../loops/runtime/readiness.js';
import { formatLogTime, ioLogger, type LogFormat, type Speaker } from './io-logger.js';
import type { Io } from './io.js';
import { parseMetricsAddr } from './parse-metrics-addr.js';
import type { Progress } from '../loops/runtime/progress.js';
import { terminalProgress } from './terminal-progress.js';
import { setLastResortLogger } from './last-resort.js';

export interface ObservabilityOptions {
  metricsAddr?: string;
  logFormat?: LogFormat;
  /** The least severe lines shown (default info). */
  logLevel?: LogLevel;
  /** For a URL: the token file, whose value is masked in every log line. */
  tokenFile?: string;
}

/** A command's logger, metrics and readiness, and the endpoint once started. */
export interface Observability {
  log: Logger;
  /**
   * Prints a loop's pass result as text (`--output text`): stamped with the time on its first
   * line, on stdout when it went well and on stderr when it `failed`; nothing below --log-level.
   * With `--log-format json` a failed one (a source that does not load, a pass that failed in
   * part) becomes an error record instead, so stderr holds only JSON lines.
   */
  report(text: string, opts: { level: LogLevel; failed?: boolean }): void;
  /** Whether the logs are JSON (--log-format json). */
  json: boolean;
  /** Returns a long step's progress lines (`<what> 3,000 of 10,000 <noun>`), or undefined off a terminal or with JSON logs. */
  progress(what: string, noun: string): Progress | undefined;
  metrics: Metrics;
  readiness: Readiness;
  /** Starts the endpoint when --metrics-addr was given; throws when the address is in use. */
  serve(): Promise<void>;
  /** Closes the endpoint (nothing when none was started). */
  close(): Promise<void>;
}

/** Returns a loop's observability from its flags: a loop serves its metrics, a --once pass never does. */
export function loopObservability(
  opts: ObservabilityOptions & { once: boolean },
  io: Io,
  deps: { speaker: Speaker; clock: Pick<Clock, 'now'> },
): Promise<Observability> {
  return observability(
    {
      ...(opts.metricsAddr !== undefined && !opts.once ? { metricsAddr: opts.metricsAddr } : {}),
      ...(opts.logFormat ? { logFormat: opts.logFormat } : {}),
      ...(opts.logLevel ? { logLevel: opts.logLevel } : {}),
      ...(opts.tokenFile !== undefined ? { tokenFile: opts.tokenFile } : {}),
    },
    io,
    deps,
  );
}

/**
 * Returns the observability of a hub or an agent; parses --metrics-addr at once. The metrics
 * library and server are loaded only when --metrics-addr asks for them (a process's start).
 */
export async function observability(
  opts: ObservabilityOptions,
  io: Io,
  deps: { speaker: Speaker; clock: Pick<Clock, 'now'>; env?: NodeJS.ProcessEnv },
): Promise<Observability> {
  const level = opts.logLevel ?? 'info';
  const log = ioLogger(io, deps.speaker, {
    format: opts.logFormat ?? 'text',
    clock: deps.clock,
    level,
    secrets: knownSecrets(opts, deps.env ?? process.env),
  });
  // A crash is then reported by the command's logger, JSON with JSON logs (last-resort.ts).
  setLastResortLogger(log);
  const readiness = new Readiness();
  const report: Observability['report'] = (text, { level: at, failed }) => {
    if (!isShown(at, level)) return;
    if (failed && opts.logFormat === 'json') return (at === 'warn' ? log.warn : log.error)(unprefixed(text));
    (failed ? io.err : io.out)(`${formatLogTime(deps.clock.now())} ${text}`);
  };
  // Progress lines are info lines of the logger: stamped, and gone at --log-level warn.
  const progressIo: Io = { ...io, err: (text) => log.info(unprefixed(text)) };
  const progress = (what: string, noun: string) =>
    terminalProgress({ io: progressIo, clock: deps.clock, logFormat: opts.logFormat ?? 'text', what, noun });
  const json = opts.logFormat === 'json';
  if (opts.metricsAddr === undefined) {
    const nothing = async () => undefined;
    return { log, report, json, progress, metrics: noMetrics(), readiness, serve: nothing, close: nothing };
  }
  const addr = parseMetricsAddr(opts.metricsAddr);
  const [{ prometheusMetrics }, { startMetricsServer }] = await Promise.all([
    import('../adapters/metrics/prometheus-metrics.js'),
    import('../adapters/http/metrics-server.js'),
  ]);
  const prom = prometheusMetrics(
    deps.speaker.name === 'agent' ? { kind: 'agent', cluster: deps.speaker.cluster ?? '' } : { kind: 'hub' },
  );
  let server: MetricsServer | undefined;
  const serve = async () => {
    server = await startMetricsServer({
      ...addr,
      readiness,
      scrape: () => prom.scrape(),
      describe: `--metrics-addr ${opts.metricsAddr}`,
    });
    log.info(`serving /metrics, /healthz and /readyz on ${server.url}`);
  };
  return { log, report, json, progress, metrics: prom, readiness, serve, close: async () => server?.close() };
}

/** Returns a line without the speaker it starts with (the logger adds its own, JSON its key). */
function unprefixed(text: string): string {
  return text.replace(/^(hub|agent [a-z0-9-]+): /, '');
}

/** The secrets this process holds and a log line must never show: the Git token, the webhook's. */
function knownSecrets(opts: ObservabilityOptions, env: NodeJS.ProcessEnv): string[] {
  const secrets = [env.GITFLEET_GIT_TOKEN, env.GITFLEET_WEBHOOK_SECRET];
  if (opts.tokenFile !== undefined) {
    try {
      secrets.push(readFileSync(opts.tokenFile, 'utf8').trim());
    } catch {
      // readToken reports an unreadable file, naming it.
    }
  }
  return secrets.filter((s): s is string => s !== undefined && s.trim() !== '').map((s) => s.trim());
}
