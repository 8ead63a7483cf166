// `agent --notify-url URL --notify-token-file FILE [--safety-poll 5m]`: the agent's doorbell,
// wired (docs/git-budget.md#doorbell). While the hub's doorbell answers, the branch poll slows
// to the safety poll, a pass refreshes from Git only when something said the branch may have
// moved (loops/agent/refresh-gate.ts), and the heartbeat push stretches to the safety poll
// (`--doorbell-heartbeat`; the beacons prove life meanwhile); the moment it stops answering,
// all three go back to what they are without it. A ring names the new head, which the render
// refresh it opens fetches without asking where the branch is, or skips when the mirror holds it (one read a ring, not two:
// adapters/remote/fetch-known-head.ts). The safety poll says nothing of a head the mirror holds
// already (a ring fetched it), and hands a head it finds moved to the gate as a ring does. The hub
// also paces the agent (loops/agent/hub-pacing.ts): when its first fetch may go, and its push slot.
import { readFile } from 'node:fs/promises';
import { readRef } from '../../adapters/git/read-ref.js';
import { ringGate, ringing } from './agent-ring-gate.js';
import { askPacing } from '../../adapters/http/doorbell-request.js';
import type { PushSlot } from '../../core/budget/plan-pacing.js';
import { hubPacing } from '../../loops/agent/hub-pacing.js';
import type { RemoteHubRepo } from '../../adapters/remote/remote-hub-repo.js';
import { clusterBranchRef, type AgentRepo } from '../../loops/agent/agent-repo.js';
import type { AgentPassResult } from '../../loops/agent/run-agent-pass.js';
import { branchPoll } from '../../loops/agent/branch-poll.js';
import type { Clock } from '../../loops/runtime/clock.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { Trigger } from '../../loops/runtime/trigger.js';
import type { Doorbell } from '../../loops/agent/doorbell.js';
import type { RefreshGate } from '../../loops/agent/refresh-gate.js';
import { escapeText } from '../../core/model/quote-text.js';
import { isRepoUrl } from '../../adapters/remote/parse-remote-url.js';
import { UsageError } from '../usage-error.js';

/** The agent's doorbell flags. */
export interface AgentDoorbellOptions {
  url: string;
  tokenFile: string;
  /** The slow poll while connected (`--safety-poll`, default 5 min). */
  safetyPollMs: number;
  /** The heartbeat push while connected (`--doorbell-heartbeat`; default: the safety poll): beacons prove life meanwhile. */
  heartbeatMs?: number;
}

/** Returns the doorbell options of the command line (an error when half given or without a URL). */
export function agentDoorbellOf(values: {
  repo: string;
  'notify-url'?: string | undefined;
  'notify-token-file'?: string | undefined;
  'safety-poll': number;
  'doorbell-heartbeat'?: number | undefined;
}): { doorbell?: AgentDoorbellOptions } {
  const url = values['notify-url'];
  const tokenFile = values['notify-token-file'];
  if (url === undefined && tokenFile === undefined) return {};
  if (url === undefined || tokenFile === undefined)
    throw new UsageError('--notify-url and --notify-token-file go together');
  if (!isRepoUrl(values.repo))
    throw new UsageError('--notify-url needs --repo to be a URL (a local repository is watched)');
  if (!/^https?:\/\//.test(url))
    throw new UsageError(`--notify-url ${escapeText(url)}: must be an http(s) URL`);
  const heartbeatMs = values['doorbell-heartbeat'];
  return {
    doorbell: {
      url,
      tokenFile,
      safetyPollMs: values['safety-poll'],
      ...(heartbeatMs !== undefined ? { heartbeatMs } : {}),
    },
  };
}

/** How the agent polls and beats, with or without a doorbell. */
export interface AgentWaiting {
  repo: AgentRepo;
  /** The remote triggers of one term of the loop (poll, doorbell). */
  triggers: () => Trigger[];
  /** The heartbeat's stretched period while beacons are accepted. */
  stretchedMs: () => number | undefined;
  /** Told of every pass: one that waits for the hub's answer refreshes from Git next time. */
  passed: (result: AgentPassResult) => void;
  /** The push slot the hub's doorbell gave (hub-pacing.ts), when it gave one. */
  pushSlot: () => PushSlot | undefined;
}

/** Returns the token of a token file; throws UsageError naming the file (never the token). */
export async function readNotifyToken(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--notify-token-file ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const token = text.trim();
  if (token === '' || /\s/.test(token))
    throw new UsageError(`--notify-token-file ${file}: must hold one token on one line`);
  return token;
}

interface WaitingOptions {
  cluster: string;
  branchPrefix: string;
  branchPollMs: number;
  beaconIntervalMs: number;
  doorbell?: AgentDoorbellOptions;
  /** `--once`: one pass, no doorbell. */
  once?: boolean;
}

interface WaitingDeps {
  clock: Clock;
  log: Logger;
  /** Uniform in [0, 1): with it, the first safety poll falls at a random moment (absent: at once, as a baseline). */
  random?: () => number;
}

/** Returns the agent's way of waiting for its branch: the branch poll alone, or with the doorbell. */
export async function agentWaiting(
  repo: AgentRepo,
  opts: WaitingOptions,
  deps: WaitingDeps,
): Promise<AgentWaiting> {
  const probe = (repo as Partial<RemoteHubRepo>).probeSource?.bind(repo);
  const { clock } = deps;
  if (!opts.doorbell || !probe || opts.once) {
    const triggers = (): Trigger[] =>
      probe ? [branchPoll({ clock, intervalMs: opts.branchPollMs, probe, held: heldHead(repo, opts) })] : [];
    const none = () => undefined;
    return { repo, triggers, stretchedMs: none, passed: none, pushSlot: none };
  }
  const settings = opts.doorbell;
  const request = {
    url: settings.url,
    cluster: opts.cluster,
    token: await readNotifyToken(settings.tokenFile),
  };
  return doorbellWaiting(repo, { probe, request, settings, opts, deps });
}

// The agent's way of waiting with the doorbell: the bell, the gate it opens, the hub's pacing and
// the branch poll that slows to the safety poll while the bell answers.
function doorbellWaiting(repo: AgentRepo, ctx: WaitingContext): AgentWaiting {
  const { request, settings, deps } = ctx;
  const { clock } = deps;
  const { bell, gated, rings } = ringGate(repo, ctx);
  const pacing = hubPacing({
    ask: (signal, starting) => askPacing({ ...request, signal, timeoutMs: 30_000 }, starting),
    clock,
    log: deps.log,
    random: Math.random,
  });
  let began = false;
  void pacing.started().then(() => (began = true));
  const started = () => began;
  return {
    // The first fetch waits for the hub's word (it paces starts by the read budget).
    // Its other members read through (a spread would drop them: refresh-gate.ts reads through too).
    repo: Object.assign(Object.create(gated.repo) as AgentRepo, {
      refresh: async () => {
        await pacing.started();
        await gated.repo.refresh();
      },
    }),
    triggers: () => [safetyPoll(repo, ctx, { bell, gate: gated.gate, started }), rings(), pacing],
    stretchedMs: () => (bell.connected() ? (settings.heartbeatMs ?? settings.safetyPollMs) : undefined),
    pushSlot: () => pacing.slot(),
    passed: (result) => {
      if (result.prune?.plan.held.some((h) => h.reason === 'WaitingForHub'))
        gated.gate.open('waiting for the hub');
    },
  };
}

/**
 * Returns the branch poll, slowed to the safety poll while the bell answers. A move it finds opens
 * the gate with the head it found, as a ring does, so a refresh after it sends nothing when the
 * mirror holds that head by then (a ring fetched it meanwhile: refresh-gate.ts), and fetches that
 * head alone otherwise; an answer the mirror holds already is no move at all (branch-poll.ts).
 */
function safetyPoll(
  repo: AgentRepo,
  ctx: WaitingContext,
  waiting: { bell: Doorbell; gate: RefreshGate; started: () => boolean },
): Trigger {
  const { probe, settings, opts, deps } = ctx;
  const { bell, gate } = waiting;
  // The head the last move found (a commit id; the answer while the branch is a tombstone is a pair).
  let found: string | undefined;
  const poll = branchPoll({
    clock: deps.clock,
    intervalMs: () => (bell.connected() ? settings.safetyPollMs : opts.branchPollMs),
    changes: (listener) => bell.onChange(listener),
    probe,
    held: heldHead(repo, opts),
    // No probe before the hub's pacing let the agent start: its first pass reads the branch then.
    started: waiting.started,
    // A head the mirror does not hold is asked for at every safety poll, so an agent the doorbell
    // led to a head that is not on the branch goes back to the branch's head within one.
    untilHeld: { isHead: (answer) => answer === null || isCommitId(answer) },
    onMove: (answer) => void (found = answer !== null && isCommitId(answer) ? answer : undefined),
    name: `branch poll every ${opts.branchPollMs} ms, every ${settings.safetyPollMs} ms with the doorbell`,
    // A fleet started together polls at random moments, not all at once.
    ...(deps.random ? { firstAfterMs: Math.floor(deps.random() * settings.safetyPollMs) } : {}),
  });
  return ringing(poll, gate, () => {
    const head = found;
    found = undefined;
    return head;
  });
}

/**
 * Returns what reads the head of the cluster branch the agent's mirror holds (where the branch
 * lives now): the poll says nothing of a move a ring or a pass fetched already (branch-poll.ts).
 */
function heldHead(repo: AgentRepo, opts: WaitingOptions): () => Promise<string | null> {
  return () => readRef(repo.gitdir, clusterBranchRef(opts.branchPrefix, opts.cluster));
}

/** Whether a probe's answer names a commit (SHA-1 or SHA-256), not the pair it answers while the branch is a tombstone. */
function isCommitId(answer: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(answer);
}

type WaitingContext = {
  probe: () => Promise<string | null>;
  request: { url: string; cluster: string; token: string };
  settings: AgentDoorbellOptions;
  opts: WaitingOptions;
  deps: WaitingDeps;
};
