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
import { mirrorLayout, isMirrored, wantedRefs, type MirrorLayout } from './mirror-layout.js';
import { fetchMirror, type RefreshResult } from './fetch-mirror.js';
import type { AllowanceHead } from './allowance-source-ref.js';
import { findBrokenRefs } from './find-broken-refs.js';
import { mirrorDirFor, openMirror, rebuildMirror, type OpenMirrorOptions } from './open-mirror.js';
import { defaultRemoteTimeouts, type RemoteTimeouts } from './remote-timeouts.js';
import { readPackedRefs, readRef } from '../git/read-ref.js';
import fs from 'node:fs';
import git from 'isomorphic-git';
import { discoverRefs } from './discover-refs.js';
import { lsRemoteBranch } from './ls-remote-branch.js';
import { parseRemoteUrl } from './parse-remote-url.js';
import type { RefMove } from '../../core/model/ref-move.js';
import { pushRefs } from './push-refs.js';
import { authHeaders, type AuthScheme } from './remote-auth.js';
import type { RemoteAccess } from './remote-access.js';
import { RemoteError } from './remote-error.js';
import { processRateLimitGates, type RateLimitGates } from './rate-limit-gate.js';
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
  publish(updates: readonly RefMove[]): Promise<void>;
  /**
   * Returns where the source branch points on the remote now (null: not there), asking for it
   * alone (ls-remote-branch.ts; the full advertisement when the server does not speak protocol
   * v2). Touches no mirror: a poller asks this often and refreshes only when it moved.
   */
  probeSource(): Promise<string | null>;
}

/**
 * Returns the hub's view of the remote; checks the options now and creates the mirror on the
 * first refresh or publish, so building it needs no I/O.
 */
export function remoteHubRepo(opts: RemoteHubRepoOptions): RemoteHubRepo {
  const remote = parseRemoteUrl(opts.url);
  const layout = mirrorLayout(opts);
  const token = opts.token ?? remote.password;
  const username = opts.username ?? remote.username;
  const auth = {
    ...(token === undefined ? {} : { token }),
    ...(opts.authScheme === undefined ? {} : { scheme: opts.authScheme }),
    ...(username === undefined ? {} : { username }),
  };
  const gitdir = mirrorDirFor(opts.cacheDir, remote.url, opts.mirrorKey);
  const warn = opts.onWarning ?? (() => undefined);
  const mirror: OpenMirrorOptions = {
    cacheDir: opts.cacheDir,
    url: remote.url,
    key: opts.mirrorKey,
    onWarning: warn,
  };
  let opened: Promise<string> | undefined;
  const open = (): Promise<string> =>
    (opened ??= openChecked(mirror, warn).catch((error: unknown) => {
      opened = undefined; // a later call tries again
      throw error;
    }));
  let damaged = false;
  const headers = authHeaders(auth);
  // The header's value and its base64 part are secrets too: a message must not quote them.
  const headerSecrets = Object.values(headers).flatMap((v) => [v, v.split(' ')[1]]);
  const access: RemoteAccess = {
    gitdir,
    url: remote.url,
    authHeaders: headers,
    secrets: [opts.token, remote.password, ...headerSecrets],
    timeouts: opts.timeouts ?? defaultRemoteTimeouts(),
    signal: opts.signal,
    gate: (opts.rateLimits ?? processRateLimitGates).gateFor(remote.url),
  };
  // One exchange at a time: a refresh must not move refs under a publish, nor the reverse.
  let last: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = (): Promise<T> => open().then(work);
    const next = last.then(run, run);
    last = next.catch(() => undefined);
    return next;
  };
  const timed = exchangeTimer(opts);
  const fetchWithin = (a: RemoteAccess): Promise<RefreshResult> =>
    withDeadline(a, 'fetch', (within) =>
      fetchMirror({ ...within, layout, quiet: opts.quietRefs, allowanceHead: opts.allowanceHead }),
    );
  const fetchOnce = async (): Promise<RefreshResult> => {
    if (damaged) {
      warn(`${gitdir}: the last fetch from ${remote.url} brought a damaged pack; rebuilding the mirror`);
      await rebuildMirror(mirror);
      damaged = false;
    }
    try {
      return await timed('fetch', () => fetchWithin(access));
    } catch (error) {
      if (error instanceof RemoteError && error.code === 'DamagedPack') damaged = true;
      throw error;
    }
  };
  const fetchRefs = (): Promise<RefreshResult> =>
    serial(async () => {
      // A branch a pass moves while this fetch is under way (its push waits behind it) is not stale.
      const before = await mirroredHeads(gitdir, layout);
      const result = await fetchOnce();
      const stale = await stillUnpublished(
        gitdir,
        before,
        await unpublishedBranches(gitdir, layout, result.remoteBranches),
      );
      if (stale.length === 0) return result;
      warn(
        `${gitdir}: the mirror holds ${stale.join(', ')}, which ${remote.url} does not (the remote was recreated, or the branch deleted there or never pushed); rebuilding the mirror`,
      );
      await rebuildMirror(mirror);
      return timed('fetch', () => fetchWithin(access));
    });
  return {
    gitdir,
    url: remote.url,
    description: remote.url,
    branchPrefix: layout.branchPrefix,
    refresh: () => fetchRefs().then(() => undefined),
    fetchRefs,
    publish: (updates) => serial(() => publishAll(access, layout, updates, timed)),
    probeSource: () => withDeadline(access, 'ls-refs', (within) => probeSource(within, layout.sourceRef)),
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
    await timed('push', () => withDeadline(access, 'push', (within) => pushRefs(within, moved)));
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

/** Returns each mirrored local branch's commit. */
async function mirroredHeads(gitdir: string, layout: MirrorLayout): Promise<Map<string, string>> {
  return new Map(
    await Promise.all(
      (await unpublishedBranches(gitdir, layout, new Map())).map(
        async (ref) => [ref, (await readRef(gitdir, ref)) ?? ''] as const,
      ),
    ),
  );
}

/** Returns those of the branches still where they were before the fetch (`before`). */
async function stillUnpublished(
  gitdir: string,
  before: ReadonlyMap<string, string>,
  refs: readonly string[],
): Promise<string[]> {
  const still: string[] = [];
  for (const ref of refs) if (before.get(ref) === (await readRef(gitdir, ref))) still.push(ref);
  return still;
}

/** Returns the mirrored local branches the remote does not have. */
async function unpublishedBranches(
  gitdir: string,
  layout: MirrorLayout,
  remoteBranches: ReadonlyMap<string, string>,
): Promise<string[]> {
  const refs =
    wantedRefs(layout) ??
    (await git.listRefs({ fs, gitdir, filepath: 'refs/heads' })).map((name) => `refs/heads/${name}`);
  const packed = await readPackedRefs(gitdir);
  const stale: string[] = [];
  for (const ref of refs) {
    if (!isMirrored(layout, ref) || remoteBranches.has(ref)) continue;
    if ((await readRef(gitdir, ref, packed)) !== null) stale.push(ref);
  }
  return stale;
}
