// A remote repository as the hub sees it: a local bare mirror to read and write objects and
// refs in (`gitdir`), `refresh` to bring the remote's branches in, `publish` to push the refs
// a pass moved. The same shape as the hub's HubRepo for local repositories, declared here
// because adapters do not depend on loops.
//
// refresh fetches with isomorphic-git (fetch-mirror.ts); publish pushes with gitfleet's own
// receive-pack client (push-refs.ts): all refs in one atomic request where the remote
// supports it, else ref by ref in order; a lost race throws PushRejected and the hub re-reads
// and runs the pass again. Only branches under the prefix are ever pushed, never the source
// branch, and never forced. The mirror is the hub's cache: deleting it costs one full fetch.
//
// The mirror is rebuilt from scratch (with a warning) when it cannot be trusted:
//   - at the first refresh of the process, a branch or tracking ref points at a missing object;
//   - the last fetch brought a pack that was cut off or damaged (DamagedPack);
//   - the mirror holds a mirrored branch the remote does not advertise: the remote was
//     recreated at the same URL, or a branch was deleted there, or a branch was made here and
//     never pushed. Keeping it would make the hub (or agent) take it as published and never
//     push it. Mirrors are keyed by URL, so this check is what keeps a new repository at an
//     old URL from inheriting the old one's refs; hub branches are never deleted on purpose,
//     so the full fetch it costs is rare.
import { mirrorLayout, isMirrored, type MirrorLayout } from './mirror-layout.js';
import { fetchMirror, type RefreshResult } from './fetch-mirror.js';
import type { AllowanceHead } from './allowance-source-ref.js';
import type { KnownHead } from './fetch-known-head.js';
import { findBrokenRefs } from './find-broken-refs.js';
import { mirrorDirFor, openMirror, rebuildMirror, type OpenMirrorOptions } from './open-mirror.js';
import { defaultRemoteTimeouts, type RemoteTimeouts } from './remote-timeouts.js';
import { discoverRefs } from './discover-refs.js';
import { lsRemoteBranch } from './ls-remote-branch.js';
import { parseRemoteUrl, type RemoteUrl } from './parse-remote-url.js';
import type { RefMove } from '../../core/model/ref-move.js';
import { pushRefs } from './push-refs.js';
import { authHeaders, type AuthScheme } from './remote-auth.js';
import type { RemoteAccess } from './remote-access.js';
import { RemoteError } from './remote-error.js';
import { processRateLimitGates, type RateLimitGates } from './rate-limit-gate.js';
import { mirroredHeads, staleMirrorBranches } from './stale-mirror-branches.js';
import { withDeadline } from './with-deadline.js';

export interface RemoteHubRepoOptions {
  /** http(s) URL of the remote repository. Credentials in it are used only when no token is given. */
  url: string;
  /** Where mirrors live; each remote gets its own directory, keyed by a hash of its URL. */
  cacheDir: string;
  /** From readToken: an environment variable or a file, never the command line. */
  token?: string;
  /** How the token is sent (default 'basic', user name `x-access-token`). */
  authScheme?: AuthScheme;
  username?: string;
  /** The branch users push to, e.g. `main` or `refs/heads/main`. */
  sourceRef: string;
  /** The prefix of every branch the hub writes, e.g. `gitfleet/`. */
  branchPrefix: string;
  /**
   * An agent's mirror: the only branches under the prefix it fetches besides `sourceRef` (full
   * names; its status and heartbeat branch, the bindings branch), asked for by name with
   * protocol v2 (fetch-wanted.ts). Default, the hub's mirror: every branch under the prefix.
   */
  onlyRefs?: readonly string[];
  /**
   * A status repository's mirror (docs/git-budget.md#status-repositories): `sourceRef` may be
   * absent on the remote, where it is an error for the fleet repository.
   */
  sourceOptional?: boolean;
  /** Connect and silence limits of every request, deadlines of each fetch, push and ls-refs (remote-timeouts.ts). */
  timeouts?: RemoteTimeouts;
  /** Aborts every request in flight: the process is stopping. */
  signal?: AbortSignal;
  /** Mixed into the mirror's directory name, so users of one URL with different layouts (hub, agents) never share a mirror. */
  mirrorKey?: string;
  /** Receives warnings: a mirror rebuilt, a directory's mode tightened. */
  onWarning?: (message: string) => void;
  /**
   * Branches whose moves alone do not call for a fetch (the agents' heartbeats: only their
   * advertised value is read); they are fetched along when another branch moves.
   */
  quietRefs?: (ref: string) => boolean;
  /**
   * The process's rate-limit gates (rate-limit-gate.ts): every repository object of one URL in a
   * process should share one registry (default: a process-wide one on the system clock, silent).
   */
  rateLimits?: RateLimitGates;
  /**
   * An agent's fleet mirror whose cluster branch lives in a render repository: where that
   * branch's head is, so the source branch its deletion allowance names is fetched here.
   */
  allowanceHead?: AllowanceHead;
  /** Told of each fetch and push, how long it took and whether it succeeded (the metrics). */
  onExchange?: (exchange: { kind: 'fetch' | 'push'; seconds: number; ok: boolean }) => void;
  /** The monotonic clock that times them, in milliseconds (default: performance.now). */
  elapsed?: () => number;
}

/** The hub's view of a remote repository. */
export interface RemoteHubRepo {
  /** The local bare mirror the hub reads and writes objects and refs in; made by the first refresh. */
  readonly gitdir: string;
  /** The remote's URL without credentials, safe to log. */
  readonly url: string;
  /** The same, for messages (the hub's HubRepo names it so). */
  readonly description: string;
  /** The prefix of the only branches (besides the source) the mirror fetches and pushes, ending in `/`. */
  readonly branchPrefix: string;
  /** Fetches the source branch and the prefixed branches into the mirror. */
  refresh(): Promise<void>;
  /** The same as refresh, and returns the mirror's branches it moved (for a poller: anything new?). */
  fetchRefs(): Promise<RefreshResult>;
  /** Pushes each updated ref by compare-and-swap; throws PushRejected when the remote moved first. */
  publish(updates: readonly RefMove[], walked?: readonly string[]): Promise<void>;
  /**
   * Returns where the source branch points on the remote now (null: not there), asking for it
   * alone (ls-remote-branch.ts; the full advertisement when the server does not speak protocol
   * v2). Touches no mirror: a poller asks this often and refreshes only when it moved.
   */
  probeSource(): Promise<string | null>;
  /**
   * The source branch was announced at `head` (a doorbell's ring): the next refresh of a mirror
   * that holds that branch alone, from a server that spoke protocol v2, fetches the head without
   * asking where the branch is (fetch-known-head.ts); `refused` hears why it did not take it.
   */
  announceHead(head: string, refused: (why: string) => void): void;
}

/**
 * Returns the hub's view of the remote; checks the options now and creates the mirror on the
 * first refresh or publish, so building it needs no I/O.
 */
export function remoteHubRepo(opts: RemoteHubRepoOptions): RemoteHubRepo {
  const remote = parseRemoteUrl(opts.url);
  const layout = mirrorLayout(opts);
  const gitdir = mirrorDirFor(opts.cacheDir, remote.url, opts.mirrorKey);
  const warn = opts.onWarning ?? (() => undefined);
  const mirror: OpenMirrorOptions = {
    cacheDir: opts.cacheDir,
    url: remote.url,
    key: opts.mirrorKey,
    onWarning: warn,
  };
  const access = remoteAccessOf(opts, remote, gitdir);
  const serial = exchangeQueue(mirrorOpener(mirror, warn));
  const timed = exchangeTimer(opts);
  const announced = announcements();
  const fetchIntoMirror = mirrorFetcher({ opts, access, layout, mirror, warn, timed, announced });
  const fetchRefs = (): Promise<RefreshResult> => serial(fetchIntoMirror);
  return {
    gitdir,
    url: remote.url,
    description: remote.url,
    branchPrefix: layout.branchPrefix,
    refresh: () => fetchRefs().then(() => undefined),
    fetchRefs,
    publish: (updates, walked) => serial(() => publishAll(access, layout, updates, timed, walked)),
    probeSource: () => withDeadline(access, 'ls-refs', (within) => probeSource(within, layout.sourceRef)),
    announceHead: (head, refused) => announced.announce({ head, refused }),
  };
}

/** The head announced for the next refresh, taken by it; offered only once the server spoke protocol v2. */
interface Announcements {
  announce(known: KnownHead): void;
  /** The announced head (forgotten once taken), when the server spoke v2 at the last ls-refs. */
  take(): KnownHead | undefined;
  spokeV2(v2: boolean): void;
}

function announcements(): Announcements {
  let known: KnownHead | undefined;
  let v2 = false;
  return {
    announce: (next) => void (known = next),
    take: () => {
      const taken = v2 ? known : undefined;
      known = undefined;
      return taken;
    },
    spokeV2: (yes) => void (v2 = yes),
  };
}

/** Returns how every request reaches the remote: its URL, credentials, limits and rate-limit gate. */
function remoteAccessOf(opts: RemoteHubRepoOptions, remote: RemoteUrl, gitdir: string): RemoteAccess {
  const token = opts.token ?? remote.password;
  const username = opts.username ?? remote.username;
  const headers = authHeaders({
    ...(token === undefined ? {} : { token }),
    ...(opts.authScheme === undefined ? {} : { scheme: opts.authScheme }),
    ...(username === undefined ? {} : { username }),
  });
  // The header's value and its base64 part are secrets too: a message must not quote them.
  const headerSecrets = Object.values(headers).flatMap((v) => [v, v.split(' ')[1]]);
  return {
    gitdir,
    url: remote.url,
    authHeaders: headers,
    secrets: [opts.token, remote.password, ...headerSecrets],
    timeouts: opts.timeouts ?? defaultRemoteTimeouts(),
    signal: opts.signal,
    gate: (opts.rateLimits ?? processRateLimitGates).gateFor(remote.url),
  };
}

/** Returns the mirror's opener: opened (and checked) once; a failed open is tried again by the next call. */
function mirrorOpener(mirror: OpenMirrorOptions, warn: (message: string) => void): () => Promise<string> {
  let opened: Promise<string> | undefined;
  return () =>
    (opened ??= openChecked(mirror, warn).catch((error: unknown) => {
      opened = undefined; // a later call tries again
      throw error;
    }));
}

type ExchangeQueue = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * Returns a queue that runs one exchange at a time, on the opened mirror: a refresh must not
 * move refs under a publish, nor the reverse.
 */
function exchangeQueue(open: () => Promise<string>): ExchangeQueue {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = (): Promise<T> => open().then(work);
    const next = last.then(run, run);
    last = next.catch(() => undefined);
    return next;
  };
}

/**
 * Returns the fetch into the mirror: rebuilt first when the last fetch brought a damaged pack,
 * and rebuilt and fetched again when it holds branches the remote does not.
 */
function mirrorFetcher(f: {
  opts: RemoteHubRepoOptions;
  access: RemoteAccess;
  layout: MirrorLayout;
  mirror: OpenMirrorOptions;
  warn: (message: string) => void;
  timed: ExchangeTimer;
  announced: Announcements;
}): () => Promise<RefreshResult> {
  const { opts, access, layout, mirror, warn, timed, announced } = f;
  const { gitdir, url } = access;
  const fetchWithin = (): Promise<RefreshResult> => {
    const knownHead = announced.take();
    return withDeadline(access, 'fetch', (within) =>
      fetchMirror({
        ...within,
        layout,
        quiet: opts.quietRefs,
        allowanceHead: opts.allowanceHead,
        knownHead,
        spokeV2: announced.spokeV2,
      }),
    );
  };
  let damaged = false;
  const fetchOnce = async (): Promise<RefreshResult> => {
    if (damaged) {
      warn(`${gitdir}: the last fetch from ${url} brought a damaged pack; rebuilding the mirror`);
      await rebuildMirror(mirror);
      damaged = false;
    }
    try {
      return await timed('fetch', fetchWithin);
    } catch (error) {
      if (error instanceof RemoteError && error.code === 'DamagedPack') damaged = true;
      throw error;
    }
  };
  return async () => {
    // A branch a pass moves while this fetch is under way (its push waits behind it) is not stale.
    const before = await mirroredHeads(gitdir, layout);
    const result = await fetchOnce();
    const stale = await staleMirrorBranches({
      gitdir,
      layout,
      before,
      remoteBranches: result.remoteBranches,
    });
    if (stale.length === 0) return result;
    warn(
      `${gitdir}: the mirror holds ${stale.join(', ')}, which ${url} does not (the remote was recreated, or the branch deleted there or never pushed); rebuilding the mirror`,
    );
    await rebuildMirror(mirror);
    return timed('fetch', fetchWithin);
  };
}

/** Where the source ref points on the remote: protocol v2 ls-refs of that ref, else the v0 advertisement. */
async function probeSource(access: RemoteAccess, ref: string): Promise<string | null> {
  const target = {
    url: access.url,
    headers: access.authHeaders,
    timeouts: access.timeouts,
    signal: access.signal,
    gate: access.gate,
    errors: { action: `ls-refs ${ref}`, url: access.url, ref, secrets: access.secrets },
  };
  const probe = await lsRemoteBranch({ ...target, ref });
  if (probe.type === 'at') return probe.oid;
  if (probe.type === 'absent') return null;
  const advertised = await discoverRefs({ ...target, service: 'git-upload-pack' });
  return advertised.refs.get(ref) ?? null;
}

async function publishAll(
  access: RemoteAccess,
  layout: MirrorLayout,
  updates: readonly RefMove[],
  timed: ExchangeTimer,
  walked?: readonly string[],
): Promise<void> {
  for (const u of updates) {
    if (!isMirrored(layout, u.ref) || u.ref === layout.sourceRef) {
      throw new RemoteError(
        'InvalidOption',
        `${u.ref}: the hub only pushes branches under refs/heads/${layout.branchPrefix}`,
        u.ref,
      );
    }
  }
  const moved = updates.filter((u) => u.oldOid !== u.newOid);
  if (moved.length > 0)
    await timed('push', () => withDeadline(access, 'push', (within) => pushRefs(within, moved, walked)));
}

type ExchangeTimer = <T>(kind: 'fetch' | 'push', work: () => Promise<T>) => Promise<T>;

/** Returns a wrapper that tells `onExchange` how long each exchange took and how it ended. */
function exchangeTimer(opts: RemoteHubRepoOptions): ExchangeTimer {
  const elapsed = opts.elapsed ?? (() => performance.now());
  return async (kind, work) => {
    if (!opts.onExchange) return work();
    const started = elapsed();
    const report = (ok: boolean) => opts.onExchange?.({ kind, seconds: (elapsed() - started) / 1000, ok });
    try {
      const result = await work();
      report(true);
      return result;
    } catch (error) {
      report(false);
      throw error;
    }
  };
}

/** Opens the mirror, rebuilding it when a ref points at a missing object. */
async function openChecked(mirror: OpenMirrorOptions, warn: (message: string) => void): Promise<string> {
  const gitdir = await openMirror(mirror);
  const broken = await findBrokenRefs(gitdir);
  if (broken.length === 0) return gitdir;
  const list = broken.map((b) => `${b.ref} at ${b.oid}`).join(', ');
  warn(`${gitdir}: the mirror is damaged (${list}: missing objects); rebuilding it from ${mirror.url}`);
  return rebuildMirror(mirror);
}
