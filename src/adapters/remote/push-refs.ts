// publish: push the refs a pass moved, by compare-and-swap, never forced, with gitfleet's own
// receive-pack client (isomorphic-git's push re-reads and re-deflates every object on
// libuv's thread pool; this one copies entries out of the mirror's packs).
//
// Against the remote's advertised value of each ref:
//
//   remote has                   outcome
//   the expected old commit      update it: `<old> <new> <ref>`, which receive-pack re-checks under its lock
//   no such branch               create it: the hub owns it (someone deleted it; it is put back)
//   the new commit already       nothing to send (an earlier publish got there)
//   anything else                PushRejected before anything is sent: another writer moved it
//
// and the new commit must descend from the remote's (fast-forward only). The one exception is
// an update marked `replace` (the agent's heartbeat: one writer, parentless commits, nothing
// reads its past): it is sent against whatever the remote advertised, without either check,
// and receive-pack still compares that value under its lock. When the remote
// supports `atomic` (git, GitHub, GitLab, Gitea do), every ref moves in one request, all or
// none; otherwise one request per ref, in the given order, stopping at the first refusal,
// so the bindings branch, last, is never visible ahead of the cluster branches.
//
// The advertisement lists every ref of the repository (about 250 KB at 1,000 clusters), and
// an agent pushes its heartbeat every few seconds. So once a remote's capabilities are known
// (from an advertisement this process read), a push first goes without one: each command
// against the value the mirror last saw (the expected old commit, or for a `replace` the
// tracking ref), only when the new commit descends from it, the objects from there on. receive-
// pack checks every old value under its lock and every object it needs, so a stale view costs a
// refusal, never a wrong update; on any refusal the push is planned again from a fresh
// advertisement as above, which gives the same outcome as if it had been read first.
import { isAncestor } from '../git/is-ancestor.js';
import { readRef } from '../git/read-ref.js';
import { updateRefs } from '../git/update-ref.js';
import { listObjectsToPush } from './list-objects-to-push.js';
import { trackingRefOf } from './mirror-layout.js';
import { openObjectReader, type ObjectReader } from './object-reader.js';
import type { RefMove } from '../../core/model/ref-move.js';
import { discoverRefs, type ServiceTarget } from './discover-refs.js';
import { sendReceivePack, type PushCommand } from './receive-pack.js';
import type { RemoteAccess } from './remote-access.js';
import { RemoteError } from './remote-error.js';
import { streamPack } from './stream-pack.js';
import { pushReportError } from './to-remote-error.js';

const zeroOid = '0000000000000000000000000000000000000000';

/** receive-pack's capabilities per remote URL, as this process last read them advertised. */
const advertisedCapabilities = new Map<string, ReadonlySet<string>>();

/**
 * Pushes the updates by compare-and-swap and moves the mirror's branches to match; throws
 * PushRejected on a lost race. `walked`: the objects to send, listed by the caller against the
 * mirror's branches (HubRepo.publish); used by a push without an advertisement only.
 */
export async function pushRefs(
  access: RemoteAccess,
  updates: readonly RefMove[],
  walked?: readonly string[],
): Promise<void> {
  // One reader of the mirror's objects for the push, opened when objects are first listed.
  let opened: Promise<ObjectReader> | undefined;
  const reader = () => (opened ??= openObjectReader(access.gitdir));
  try {
    if (!(await pushBlind(access, updates, reader, walked))) await pushAdvertised(access, updates, reader);
  } finally {
    if (opened) await (await opened).close();
  }
}

/** Plans the push from receive-pack's advertisement (and remembers the remote's capabilities), then sends it. */
async function pushAdvertised(
  access: RemoteAccess,
  updates: readonly RefMove[],
  reader: () => Promise<ObjectReader>,
): Promise<void> {
  const advertised = await discoverRefs({ ...serviceTarget(access), service: 'git-receive-pack' });
  advertisedCapabilities.set(access.url, advertised.capabilities);
  const { commands, done } = await planCommands(access, advertised.refs, updates);
  await recordPushed(access.gitdir, done);
  if (commands.length === 0) return;
  const atomic = advertised.capabilities.has('atomic');
  const capabilities = capabilitiesToAsk(advertised.capabilities);
  const remoteHas = new Set(advertised.refs.values());
  for (const batch of atomic ? [commands] : commands.map((c) => [c])) {
    await pushBatch({
      reader: await reader(),
      remoteHas,
      batch,
      capabilities,
      target: serviceTarget(access, batch[0]!.ref),
      gitdir: access.gitdir,
    });
  }
}

function serviceTarget(access: RemoteAccess, ref?: string): ServiceTarget {
  return {
    url: access.url,
    headers: access.authHeaders,
    timeouts: access.timeouts,
    signal: access.signal,
    gate: access.gate,
    errors: {
      action: 'push',
      url: access.url,
      secrets: access.secrets,
      ...(ref === undefined ? {} : { ref }),
    },
  };
}

function capabilitiesToAsk(advertised: ReadonlySet<string>): string[] {
  return [
    'report-status',
    ...(advertised.has('atomic') ? ['atomic'] : []),
    ...(advertised.has('side-band-64k') ? ['side-band-64k'] : []),
  ];
}

/**
 * Pushes against the mirror's view of the remote without reading the advertisement; returns
 * false, having moved nothing, when that cannot be done or the remote refused it. Only for a
 * remote whose capabilities are known, in one request (one update, or `atomic`), and only for
 * updates the mirror's view already allows: the expected old commit is the one it tracks, the
 * new one descends from it (a `replace` goes against the tracked value, whatever it is).
 */
async function pushBlind(
  access: RemoteAccess,
  updates: readonly RefMove[],
  reader: () => Promise<ObjectReader>,
  walked: readonly string[] | undefined,
): Promise<boolean> {
  const known = advertisedCapabilities.get(access.url);
  if (known === undefined || !known.has('report-status') || updates.length === 0) return false;
  if (updates.length > 1 && !known.has('atomic')) return false;
  const commands: PushCommand[] = [];
  for (const u of updates) {
    const tracked = await readRef(access.gitdir, trackingRefOf(u.ref));
    if (u.replace !== true) {
      if (tracked !== u.oldOid) return false;
      if (
        tracked !== null &&
        !(await isAncestor({ gitdir: access.gitdir, ancestor: tracked, descendant: u.newOid }))
      )
        return false;
    }
    if (tracked === u.newOid) return false;
    commands.push({ ref: u.ref, old: tracked ?? zeroOid, new: u.newOid });
  }
  try {
    await pushBatch({
      reader: await reader(),
      remoteHas: new Set(commands.map((c) => c.old).filter((oid) => oid !== zeroOid)),
      batch: commands,
      capabilities: capabilitiesToAsk(known),
      target: serviceTarget(access, commands[0]!.ref),
      gitdir: access.gitdir,
      ...(walked ? { walked } : {}),
    });
    return true;
  } catch (error) {
    // Refused, or the pack could not be stored (it lacked what the remote no longer has): the
    // advertisement decides. Anything else (the remote unreachable, credentials) would fail the
    // same way again.
    if (error instanceof RemoteError && ['PushRejected', 'PushDeclined', 'RemoteFailed'].includes(error.code))
      return false;
    throw error;
  }
}

/** Turns the updates into commands against what the remote holds; returns them and the updates already there. */
async function planCommands(
  access: RemoteAccess,
  remote: ReadonlyMap<string, string>,
  updates: readonly RefMove[],
): Promise<{ commands: PushCommand[]; done: PushCommand[] }> {
  const commands: PushCommand[] = [];
  const done: PushCommand[] = [];
  for (const u of updates) {
    const actual = remote.get(u.ref) ?? null;
    const command = { ref: u.ref, old: actual ?? zeroOid, new: u.newOid };
    if (actual === u.newOid) {
      done.push(command);
      continue;
    }
    if (u.replace === true) {
      commands.push(command);
      continue;
    }
    if (actual !== null && actual !== u.oldOid) {
      const message = `${u.ref}: push to ${access.url} rejected: the remote is at ${actual}, expected ${u.oldOid ?? 'no branch'} (another writer moved it); re-read and retry`;
      throw new RemoteError('PushRejected', message, u.ref);
    }
    if (
      actual !== null &&
      !(await isAncestor({ gitdir: access.gitdir, ancestor: actual, descendant: u.newOid }))
    ) {
      const message = `${u.ref}: push to ${access.url} rejected: ${u.newOid} does not descend from the remote's ${actual}; refusing to rewrite history`;
      throw new RemoteError('PushRejected', message, u.ref);
    }
    commands.push(command);
  }
  return { commands, done };
}

async function pushBatch(opts: {
  reader: ObjectReader;
  remoteHas: Set<string>;
  batch: PushCommand[];
  capabilities: string[];
  target: ServiceTarget;
  gitdir: string;
  /** The objects to send, when the caller walked them already. */
  walked?: readonly string[];
}): Promise<void> {
  const tips = opts.batch.map((c) => c.new);
  const oids =
    opts.walked ?? (await listObjectsToPush({ reader: opts.reader, tips, remoteHas: opts.remoteHas }));
  const { report, messages } = await sendReceivePack({
    ...opts.target,
    commands: opts.batch,
    capabilities: opts.capabilities,
    pack: streamPack(opts.reader, oids),
  });
  const moved = opts.batch.filter((c) => report.get(c.ref) === null);
  // The new commits the pack carried were read from the mirror: known to be stored there.
  const listed = new Set(oids);
  await recordPushed(opts.gitdir, moved, new Set(tips.filter((t) => listed.has(t))));
  for (const c of moved) opts.remoteHas.add(c.new);
  const failures = opts.batch.filter((c) => report.get(c.ref) !== null);
  if (failures.length > 0) {
    throw pushReportError(
      failures.map((c) => `${c.ref} ${report.get(c.ref) ?? 'no answer from the remote'}`),
      opts.target.errors,
      messages,
    );
  }
}

/** The remote now holds these: so do the mirror's tracking refs and branches (`sent`: commits the push read from the mirror). */
async function recordPushed(
  gitdir: string,
  pushed: readonly PushCommand[],
  sent: ReadonlySet<string> = new Set(),
): Promise<void> {
  const refs = pushed.flatMap((c) => [c.ref, trackingRefOf(c.ref)].map((ref) => ({ ref, newOid: c.new })));
  const updates = [];
  for (const { ref, newOid } of refs) {
    const current = await readRef(gitdir, ref);
    if (current !== newOid) updates.push({ ref, newOid, expectedOld: current });
  }
  if (updates.length > 0)
    await updateRefs({ gitdir, updates, allowNonFastForward: true, storedCommits: sent });
}
