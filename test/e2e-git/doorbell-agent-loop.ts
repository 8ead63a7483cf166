// m1's agent loop on a fake cluster for the doorbell's end-to-end tests: its triggers, its gated
// repository and its report as `gitfleet agent` wires them (cli/commands/agent-doorbell.ts
// agentWaiting), every wait on the fake clock the waiting was given; stopped after the test.
import type { TestContext } from 'node:test';
import type { AgentWaiting } from '../../src/cli/commands/agent-doorbell.js';
import { runAgentLoop } from '../../src/loops/agent/agent-loop.js';
import type { AgentRepo } from '../../src/loops/agent/agent-repo.js';
import { writeHeartbeat } from '../../src/loops/agent/heartbeat.js';
import { silentLogger } from '../../src/loops/runtime/logger.js';
import { periodicTrigger } from '../../src/loops/runtime/trigger.js';
import { fakeAgent, type FakeAgent } from '../loops/agent/fake-agent.js';
import type { FakeClock } from '../loops/runtime/fake-clock.js';

/** Starts the loop (a 30 s resync, the waiting's triggers; the heartbeat when asked); returns the agent. */
export function startDoorbellAgentLoop(
  t: TestContext,
  opts: { waiting: AgentWaiting; clock: FakeClock; fleetRepo?: () => AgentRepo; heartbeat?: boolean },
): FakeAgent {
  const { waiting, clock } = opts;
  const agent = fakeAgent({ repo: waiting.repo });
  // The doorbell and the poll run on the clock they were given: the agent's must be the same.
  Object.assign(agent, { clock });
  agent.options.clock = clock;
  let stop!: () => void;
  const heartbeat = {
    intervalMs: 10_000,
    stretchedMs: waiting.stretchedMs,
    write: () =>
      writeHeartbeat({
        repo: waiting.repo,
        ref: 'refs/heads/gitfleet/heartbeat/m1',
        cluster: 'm1',
        author: { name: 'agent', email: 'agent@test.invalid', time: 0, tzOffsetMinutes: 0 },
      }),
  };
  const loop = runAgentLoop({
    pass: () => agent.pass(opts.fleetRepo ? { fleetRepo: opts.fleetRepo } : {}),
    client: agent.fake,
    cluster: 'm1',
    memory: agent.memory,
    triggers: [periodicTrigger({ clock, intervalMs: 30_000 }), ...waiting.triggers()],
    clock,
    random: () => 0,
    log: silentLogger(),
    report: (result) => waiting.passed(result),
    stop: new Promise<void>((resolve) => (stop = resolve)),
    ...(opts.heartbeat === true ? { heartbeat } : {}),
  });
  t.after(async () => {
    stop();
    await loop;
  });
  return agent;
}
