// Benchmark: how soon agents on a smart-HTTP remote (git's own http-backend,
// test/git-server/start-git-server.ts) notice a new commit of their cluster branch, and what
// their waiting costs the Git host. Not a test: the figures go to the README.
//
//   npx tsc -p tsconfig.json && node build/bench/push-latency.js [--pushes 30] [--agents 2] [--fleet 1000] [--poll-ms 1000] [--json]
//
// The served repository holds `--fleet` clusters' refs (cluster, status and heartbeat branch
// each), as a hub of that size leaves them. Each agent runs the agent loop's trigger
// (branch-poll.ts over remoteHubRepo.probeSource: one protocol v2 ls-refs of its branch)
// and, when it fires, the refresh a pass starts with (the mirror's fetch). The "hub" pushes a
// new commit to every agent's branch with `git push`, at a random moment against the polls
// (30 pushes, 0.3 to 1.3 s apart); the latency is from the push's end to each agent's mirror
// holding the commit, from the start of the push (noticed and fetched: what the pass then applies is the apply scenario's).
// The server's side is counted on the wire: a TCP proxy in front of the server counts the
// bytes each way and the requests (the server's own log) while the agents only wait, for a
// minute's worth scaled from a measured window, and the same for the v0 advertisement
// (GET info/refs) a poll would read without protocol v2.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { discoverRefs } from '../src/adapters/remote/discover-refs.js';
import { remoteHubRepo, type RemoteHubRepo } from '../src/adapters/remote/remote-hub-repo.js';
import { defaultRemoteTimeouts } from '../src/adapters/remote/remote-timeouts.js';
import { readRef } from '../src/adapters/git/read-ref.js';
import { agentMirrorRefs } from '../src/loops/agent/agent-repo.js';
import { branchPoll } from '../src/loops/agent/branch-poll.js';
import { writeHeartbeat } from '../src/loops/agent/heartbeat.js';
import { systemClock } from '../src/loops/runtime/clock.js';
import { startGitServer } from '../test/git-server/start-git-server.js';
import { machineInfo } from './lib/machine.js';

const { values } = parseArgs({
  options: {
    pushes: { type: 'string', default: '30' },
    agents: { type: 'string', default: '2' },
    fleet: { type: 'string', default: '1000' },
    'poll-ms': { type: 'string', default: '1000' },
    'idle-ms': { type: 'string', default: '10000' },
    json: { type: 'boolean', default: false },
  },
});
const pushes = Number(values.pushes);
const agents = Number(values.agents);
const fleet = Number(values.fleet);
const pollMs = Number(values['poll-ms']);
const idleMs = Number(values['idle-ms']);

/** A TCP proxy that counts the bytes each way. */
async function countingProxy(
  port: number,
): Promise<{ port: number; bytes: { up: number; down: number }; server: Server }> {
  const bytes = { up: 0, down: 0 };
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    client.on('data', (d: Buffer) => ((bytes.up += d.length), upstream.write(d)));
    upstream.on('data', (d: Buffer) => ((bytes.down += d.length), client.write(d)));
    const end = () => (client.destroy(), upstream.destroy());
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, bytes, server };
}

const git = (cwd: string, args: string[], input?: string) =>
  execFileSync('git', args, {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  }).trim();

const root = mkdtempSync(join(tmpdir(), 'gitfleet-bench-push-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));
const served = join(root, 'fleet.git');
git(root, ['-c', 'init.defaultBranch=main', 'init', '-q', '--bare', served]);
git(served, ['config', 'http.receivepack', 'true']);
const work = join(root, 'work');
mkdirSync(work);
git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
git(work, ['config', 'user.email', 'hub@gitfleet.invalid']);
git(work, ['config', 'user.name', 'hub']);
writeFileSync(join(work, 'a.yaml'), 'kind: ConfigMap\n');
git(work, ['add', '.']);
git(work, ['commit', '-q', '-m', 'first']);
const head = git(work, ['rev-parse', 'HEAD']);
git(work, ['push', '-q', served, 'HEAD:refs/heads/main']);
const names = Array.from({ length: Math.max(fleet, agents) }, (_, i) => `member${i + 1}`);
// The fleet's refs as a hub leaves them: a cluster, a status and a heartbeat branch each.
git(
  served,
  ['update-ref', '--stdin'],
  names
    .flatMap((n) =>
      ['clusters', 'status', 'heartbeat'].map((k) => `create refs/heads/gitfleet/${k}/${n} ${head}\n`),
    )
    .join(''),
);

console.error('push-latency: fleet repo ready');
const server = await startGitServer({ root });
const direct = new URL(server.url('fleet.git'));
const proxy = await countingProxy(Number(direct.port));
const url = `http://127.0.0.1:${proxy.port}/fleet.git`;
const clock = systemClock();

interface Agent {
  name: string;
  repo: RemoteHubRepo;
  noticed: Map<string, number>;
  /** When the poll trigger fired. */
  fired: number[];
  stop: () => Promise<void>;
}
const started: Agent[] = [];
for (const name of names.slice(0, agents)) {
  const repo = remoteHubRepo({
    url,
    cacheDir: join(root, `cache-${name}`),
    mirrorKey: `agent ${name}`,
    sourceRef: `gitfleet/clusters/${name}`,
    branchPrefix: 'gitfleet/',
    onlyRefs: agentMirrorRefs('gitfleet/', name),
    quietRefs: (ref) => ref.startsWith('refs/heads/gitfleet/heartbeat/'),
  });
  await repo.refresh();
  console.error(`push-latency: ${name} mirrored`);
  const noticed = new Map<string, number>();
  const fired: number[] = [];
  let refreshing: Promise<void> = Promise.resolve();
  const trigger = branchPoll({ clock, intervalMs: pollMs, probe: repo.probeSource });
  await trigger.start(() => {
    fired.push(performance.now());
    // As the agent loop does: a trigger queues a pass, whose first step is the refresh.
    refreshing = refreshing.then(async () => {
      // A failed refresh is said and the next trigger tries again.
      await repo.refresh().catch((e: Error) => console.error(`push-latency: ${name}: ${e.message}`));
      const oid = await readRef(repo.gitdir, `refs/heads/gitfleet/clusters/${name}`);

      if (oid && !noticed.has(oid)) noticed.set(oid, performance.now());
    });
  });
  started.push({ name, repo, noticed, fired, stop: () => trigger.stop() });
}

console.error('push-latency: agents polling');
// Waiting only: what the polls cost the server.
const reqBefore = server.requests.length;
const bytesBefore = { ...proxy.bytes };
await new Promise((r) => setTimeout(r, idleMs));
const idle = {
  windowMs: idleMs,
  requests: server.requests.length - reqBefore,
  bytesUp: proxy.bytes.up - bytesBefore.up,
  bytesDown: proxy.bytes.down - bytesBefore.down,
};

const perAgentMinute = (x: number) => Math.round((x * 60_000) / idleMs / agents);

/** Returns the bytes on the wire of one v0 advertisement of the service, through the proxy. */
async function advertisementBytes(service: 'git-upload-pack' | 'git-receive-pack'): Promise<number> {
  const before = { ...proxy.bytes };
  await discoverRefs({
    url,
    headers: {},
    timeouts: defaultRemoteTimeouts(),
    errors: { action: 'info/refs', url, secrets: [] },
    service,
  });
  return proxy.bytes.up - before.up + proxy.bytes.down - before.down;
}
// The v0 advertisement a poll without protocol v2 reads (what a refresh reads first), once.
const v0Bytes = await advertisementBytes('git-upload-pack');
// What every push of an agent (its status, its heartbeat) reads first: receive-pack has no
// protocol v2, so its advertisement lists every ref.
const receivePackBytes = await advertisementBytes('git-receive-pack');

const latencies: number[] = [];
const noticeLatencies: number[] = [];
// The push phase: polls plus the refreshes the pushes cause. The pushes go to the server
// directly (not through the proxy), so the proxy's bytes are the agents' alone; each `git
// push` is two of the server's requests (GET info/refs, POST git-receive-pack).
const phaseStart = { at: performance.now(), requests: server.requests.length, ...proxy.bytes };
for (let i = 0; i < pushes; i++) {
  await new Promise((r) => setTimeout(r, 300 + Math.random() * 1000));
  writeFileSync(join(work, 'a.yaml'), `kind: ConfigMap\n# ${i}\n`);
  git(work, ['commit', '-q', '-am', `change ${i}`]);
  const oid = git(work, ['rev-parse', 'HEAD']);
  const refspecs = started.map((a) => `HEAD:refs/heads/gitfleet/clusters/${a.name}`);
  // From the push's start (the ref may move before git exits): an upper bound.
  const pushed = performance.now();
  // Not execFileSync: the server answering the push runs in this process.
  await promisify(execFile)('git', ['push', '-q', '--force', direct.href, ...refspecs], { cwd: work });
  const deadline = pushed + 60_000;
  while (started.some((a) => !a.noticed.has(oid)) && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 10));
  for (const a of started) {
    latencies.push(Math.round((a.noticed.get(oid) ?? Number.NaN) - pushed));
    noticeLatencies.push(Math.round((a.fired.find((t) => t >= pushed) ?? Number.NaN) - pushed));
  }
  console.error(`push-latency: push ${i + 1}: ${latencies.slice(-agents).join(', ')} ms`);
}
const phaseMs = performance.now() - phaseStart.at;
const phase = {
  windowMs: Math.round(phaseMs),
  requests: server.requests.length - phaseStart.requests - 2 * pushes,
  bytesUp: proxy.bytes.up - phaseStart.up,
  bytesDown: proxy.bytes.down - phaseStart.down,
};
for (const a of started) await a.stop();

// An agent's own pushes, its heartbeat the most frequent (every 10 s by default): the polls are
// stopped, so the proxy counts one agent's heartbeat pushes alone. The first in the process reads
// receive-pack's advertisement; once its capabilities are known, a push goes without it
// (src/adapters/remote/push-refs.ts).
const heartbeats: { bytes: number; requests: number; ms: number }[] = [];
for (let i = 0; i < 6; i++) {
  const before = { requests: server.requests.length, ...proxy.bytes, at: performance.now() };
  await writeHeartbeat({
    repo: started[0]!.repo,
    ref: `refs/heads/gitfleet/heartbeat/${started[0]!.name}`,
    cluster: started[0]!.name,
    author: { name: 'bench', email: 'bench@example.invalid', time: 1_700_000_000 + i, tzOffsetMinutes: 0 },
  });
  heartbeats.push({
    bytes: proxy.bytes.up - before.up + proxy.bytes.down - before.down,
    requests: server.requests.length - before.requests,
    ms: Math.round(performance.now() - before.at),
  });
}
proxy.server.close();
await server.close();

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p: number) => percentile(latencies, p);
const perPollBytes = Math.round((idle.bytesUp + idle.bytesDown) / Math.max(1, idle.requests));
const report = {
  pushes,
  agents,
  fleetClusters: fleet,
  pollMs,
  machine: machineInfo(),
  latencyMs: { p50: pct(50), p99: pct(99), min: sorted[0], max: sorted.at(-1), samples: latencies },
  noticedMs: {
    p50: percentile(noticeLatencies, 50),
    p99: percentile(noticeLatencies, 99),
    samples: noticeLatencies,
  },
  missed: latencies.filter((l) => !Number.isFinite(l)).length,
  idle,
  pushPhase: {
    ...phase,
    perAgentPerMinute: {
      requests: Math.round((phase.requests * 60_000) / phaseMs / agents),
      bytes: Math.round(((phase.bytesUp + phase.bytesDown) * 60_000) / phaseMs / agents),
    },
    /** What one push of its branch costs one agent beyond its polls, from the phase's bytes less the idle rate. */
    perPushPerAgentBytes: Math.round(
      (phase.bytesUp + phase.bytesDown - ((idle.bytesUp + idle.bytesDown) * phaseMs) / idleMs) /
        pushes /
        agents,
    ),
  },
  perAgentPerMinute: {
    requests: perAgentMinute(idle.requests),
    bytes: perAgentMinute(idle.bytesUp + idle.bytesDown),
  },
  perPollBytes,
  v0AdvertisementBytes: v0Bytes,
  receivePackAdvertisementBytes: receivePackBytes,
  /** One agent's heartbeat pushes: the first (advertisement read), then each later one. */
  heartbeatPushes: {
    first: heartbeats[0]!,
    later: heartbeats.slice(1),
    /** At one heartbeat every 10 s, what 1,000 agents' heartbeats cost the host a minute. */
    thousandAgentsPerMinuteBytes: Math.round(
      (heartbeats.slice(1).reduce((n, h) => n + h.bytes, 0) / 5) * 6 * 1000,
    ),
  },
  thousandAgentsPerMinute: {
    requests: perAgentMinute(idle.requests) * 1000,
    bytes: perAgentMinute(idle.bytesUp + idle.bytesDown) * 1000,
    bytesIfV0: Math.round((60_000 / pollMs) * v0Bytes * 1000),
  },
};
if (values.json) console.log(JSON.stringify(report, null, 2));
else {
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
  console.log(
    `push latency: ${agents} agents polling every ${pollMs} ms, ${pushes} pushes, a fleet of ${fleet} clusters' refs`,
  );
  console.log(
    `  push → agent's mirror holds the commit: P50 ${report.latencyMs.p50} ms, P99 ${report.latencyMs.p99} ms (min ${report.latencyMs.min}, max ${report.latencyMs.max}; ${report.missed} missed)`,
  );
  console.log(
    `  push → the poll noticed it: P50 ${report.noticedMs.p50} ms, P99 ${report.noticedMs.p99} ms (the rest is the mirror's fetch)`,
  );
  console.log(
    `  one agent waiting, per minute: ${report.perAgentPerMinute.requests} requests, ${report.perAgentPerMinute.bytes} bytes on the wire (${perPollBytes} per poll)`,
  );
  console.log(
    `  while pushed to (${pushes} pushes): per agent per minute ${report.pushPhase.perAgentPerMinute.requests} requests, ${report.pushPhase.perAgentPerMinute.bytes} bytes; a push costs each agent about ${report.pushPhase.perPushPerAgentBytes} bytes beyond its polls`,
  );
  console.log(
    `  receive-pack's advertisement of every ref: ${receivePackBytes} bytes; an agent's first heartbeat push in a process (which reads it): ${heartbeats[0]!.bytes} bytes, ${heartbeats[0]!.requests} requests; each later one: ${heartbeats
      .slice(1)
      .map((h) => `${h.bytes} bytes/${h.requests} req`)
      .join(
        ', ',
      )}; 1,000 agents' heartbeats (every 10 s): ${mib(report.heartbeatPushes.thousandAgentsPerMinuteBytes)} a minute`,
  );
  console.log(
    `  1,000 agents, per minute: ${report.thousandAgentsPerMinute.requests} requests, ${mib(report.thousandAgentsPerMinute.bytes)}; with the v0 advertisement (${v0Bytes} bytes a poll): ${mib(report.thousandAgentsPerMinute.bytesIfV0)}`,
  );
}
