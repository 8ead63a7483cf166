// `hub --notify-addr HOST:PORT --notify-tokens FILE`: the hub's doorbell, wired
// (docs/git-budget.md#doorbell). The doorbell learns where each cluster branch is from the
// repository the hub works on, at two moments only: after a refresh (what the Git host has)
// and after a publish succeeded (what the pass just pushed), never after a local move that
// may not be pushed yet, so an agent told "moved" always finds the commit on the Git host. It
// answers only while this replica leads, and its beacons feed the cluster monitor.
import { listRefs } from '../../adapters/git/list-refs.js';
import { startNotifyServer, type NotifyServer } from '../../adapters/http/notify-server.js';
import { NotifyTokensError, type NotifyTokens } from '../../adapters/http/notify-tokens.js';
import { notifyTokensFile, type NotifyTokensFile } from '../../adapters/http/notify-tokens-file.js';
import { clusterRefPrefix } from '../../core/publish/hub-refs.js';
import { clusterBeacons, type ClusterBeacons } from '../../loops/hub/cluster-beacons.js';
import type { RenderRepositories } from '../../loops/hub/render-repositories.js';
import type { Clock } from '../../loops/runtime/clock.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import { parseMetricsAddr } from '../parse-metrics-addr.js';
import { UsageError } from '../usage-error.js';
import type { Forge } from '../../core/budget/forge-budget.js';
import { forgeOf } from '../forge-profile.js';
import type { StatusRepositories } from '../../loops/hub/status-repositories.js';
import { hubPacing } from './hub-pacing.js';

/** The hub's doorbell flags. */
export interface HubDoorbellOptions {
  /** `--notify-addr` as given (HOST:PORT, :PORT or PORT). */
  addr: string;
  /** `--notify-tokens`: the file of cluster → token (or sha256:<hex>). */
  tokensFile: string;
  /** The Git host whose budget the doorbell paces fetches and pushes by (hub-pacing.ts; generic: none). */
  forge?: Forge;
}

/** Returns the doorbell options of the command line (both flags or neither). */
export function notifyOf(values: {
  repo: string;
  forge?: string | undefined;
  'notify-addr'?: string | undefined;
  'notify-tokens'?: string | undefined;
}): { notify?: HubDoorbellOptions } {
  const addr = values['notify-addr'];
  const tokensFile = values['notify-tokens'];
  if (addr === undefined && tokensFile === undefined) return {};
  if (addr === undefined || tokensFile === undefined)
    throw new UsageError('--notify-addr and --notify-tokens go together');
  const forge = forgeOf({ repo: values.repo, forge: values.forge });
  return { notify: { addr, tokensFile, ...(forge ? { forge } : {}) } };
}

/** A running doorbell of the hub. */
export interface HubDoorbell {
  /** The hub's repository, whose refresh and publish tell the doorbell. */
  repo: HubRepo;
  beacons: ClusterBeacons;
  server: NotifyServer;
  /** Answers every held wait 503: this replica stopped leading. */
  standDown(): void;
  close(): Promise<void>;
}

/** Returns the host and port of --notify-addr, or throws a usage error naming the flag. */
export function parseNotifyAddr(text: string): { host: string; port: number } {
  try {
    return parseMetricsAddr(text);
  } catch {
    throw new UsageError(`--notify-addr must be HOST:PORT, :PORT or PORT (e.g. 0.0.0.0:8090), not '${text}'`);
  }
}

/** Starts the doorbell over the hub's repository; throws UsageError for a bad tokens file. */
export async function startHubDoorbell(
  opts: HubDoorbellOptions & { branchPrefix: string; render?: RenderRepositories },
  repo: HubRepo,
  deps: {
    clock: Clock;
    log: Logger;
    serving: () => boolean;
    /** Where each cluster's status goes: push slots are per status repository. */
    statusRepositories?: StatusRepositories;
  },
): Promise<HubDoorbell> {
  const { host, port } = parseNotifyAddr(opts.addr);
  const file = await readTokensFile(opts.tokensFile);
  const tokens = file.current();
  const beacons = clusterBeacons();
  let heads: Map<string, string> | undefined;
  const server = await startNotifyServer({
    host,
    port,
    tokens: registeredTokens(file, () => deps.statusRepositories?.signingKeys()),
    // Before the first refresh the hub does not know: the wait is held, not answered wrong.
    head: (cluster) => (heads === undefined ? undefined : (heads.get(cluster) ?? null)),
    serving: deps.serving,
    onBeacon: (cluster) => beacons.heard(cluster),
    setTimer: (callback, ms) => deps.clock.setTimer(callback, ms),
    ...hubPacing({
      forge: opts.forge ?? 'generic',
      readers: tokens.size,
      clusters: () => (heads === undefined ? undefined : [...heads.keys()]),
      ...(deps.statusRepositories ? { statusRepositories: deps.statusRepositories } : {}),
      ...(opts.render ? { render: opts.render } : {}),
      now: () => deps.clock.now(),
    }),
  });
  const prefix = clusterRefPrefix(opts.branchPrefix);
  const look = async (): Promise<void> => {
    const now = new Map<string, string>();
    for (const [ref, oid] of await listRefs(repo.gitdir, prefix)) now.set(ref.slice(prefix.length), oid);
    const before = heads;
    // A branch in a render repository is where it lives there, as last pushed or fetched.
    heads = opts.render ? opts.render.overlay(now) : now;
    for (const cluster of new Set([...now.keys(), ...(before?.keys() ?? [])]))
      if (before?.get(cluster) !== heads.get(cluster)) server.moved(cluster, heads.get(cluster) ?? null);
  };
  const told = (what: string) => (error: unknown) =>
    deps.log.warn(`doorbell: reading the cluster branches after ${what}: ${(error as Error).message}`);
  // It rings as soon as a push to a render repository succeeded, before the bindings branch moves.
  opts.render?.onPublished(() => look().catch(told('a push to a render repository')));
  deps.log.info(`doorbell: listening on ${server.url} for ${tokens.size} clusters`);
  return {
    repo: looking(repo, { file, tokensFile: opts.tokensFile, log: deps.log, look, told }),
    beacons,
    server,
    standDown: () => server.standDown(),
    close: () => server.close(),
  };
}

// Reads the tokens file; one that cannot be read is a UsageError naming it.
function readTokensFile(name: string): Promise<NotifyTokensFile> {
  return notifyTokensFile(name).catch((error: NodeJS.ErrnoException) => {
    if (error instanceof NotifyTokensError) throw error;
    throw new UsageError(`--notify-tokens ${name}: cannot be read (${error.code ?? 'error'})`);
  });
}

// The hub's repository whose every refresh (reading the tokens file again) and push looks at the
// cluster branches again.
function looking(
  repo: HubRepo,
  ctx: {
    file: NotifyTokensFile;
    tokensFile: string;
    log: Logger;
    look: () => Promise<void>;
    told: (what: string) => (error: unknown) => void;
  },
): HubRepo {
  const { file, tokensFile, log, look, told } = ctx;
  return {
    ...repo,
    refresh: async () => {
      await repo.refresh();
      await reloadTokens(file, tokensFile, log);
      await look().catch(told('a refresh'));
    },
    publish: async (moves) => {
      await repo.publish(moves);
      await look().catch(told('a push'));
    },
  };
}

// The tokens that open the doorbell: the file's as last read, of the clusters the last pass found
// registered (a cluster that left, or whose registration is gone, is refused like an unknown
// one); all of the file's before a pass has loaded the fleet.
function registeredTokens(
  file: NotifyTokensFile,
  registered: () => ReadonlyMap<string, unknown> | undefined,
): () => NotifyTokens {
  let from: { tokens: NotifyTokens; clusters: ReadonlyMap<string, unknown> } | undefined;
  let kept: NotifyTokens = file.current();
  return () => {
    const tokens = file.current();
    const clusters = registered();
    if (clusters === undefined) return tokens;
    if (from?.tokens !== tokens || from.clusters !== clusters) {
      kept = new Map([...tokens].filter(([cluster]) => clusters.has(cluster)));
      from = { tokens, clusters };
    }
    return kept;
  };
}

// Reads the tokens file again when it changed, saying so; a file that no longer parses keeps the old tokens.
async function reloadTokens(file: NotifyTokensFile, name: string, log: Logger): Promise<void> {
  const outcome = await file.reload();
  if (outcome.type === 'reloaded')
    log.info(`doorbell: --notify-tokens ${name} read again: ${outcome.clusters} clusters`);
  if (outcome.type === 'failed') log.warn(`doorbell: --notify-tokens ${outcome.message}`);
}
