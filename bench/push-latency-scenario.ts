// Scenario push-latency: bench/push-latency.js in a fresh process; the agents' P50/P99 from a
// push to their mirror holding the commit, and what their polls cost the Git host.
import { fileURLToPath } from 'node:url';
import type { Scenario, ScenarioReport } from './lib/report.js';
import { runTimed } from './lib/run-timed.js';
import { spread } from './lib/stats.js';

const script = fileURLToPath(new URL('./push-latency.js', import.meta.url));

interface PushLatencyReport {
  latencyMs: { p50: number; p99: number; samples: number[] };
  missed: number;
  perAgentPerMinute: { requests: number; bytes: number };
  thousandAgentsPerMinute: { requests: number; bytes: number; bytesIfV0: number };
  perPollBytes: number;
  pushPhase: { perPushPerAgentBytes: number };
  v0AdvertisementBytes: number;
  heartbeatPushes: {
    first: { bytes: number };
    later: { bytes: number }[];
    thousandAgentsPerMinuteBytes: number;
  };
}

export const pushLatencyScenario: Scenario = {
  name: 'push-latency',
  summary: 'agents on a smart-HTTP remote notice a push of their branch: P50/P99, the cost of waiting',
  run: async (opts): Promise<ScenarioReport> => {
    const shape = opts.quick ? { pushes: 8, agents: 2, fleet: 100 } : { pushes: 30, agents: 2, fleet: 1000 };
    opts.log(`push-latency: ${shape.pushes} pushes, ${shape.agents} agents, ${shape.fleet} clusters' refs`);
    const run = await runTimed({
      command: process.execPath,
      args: [
        script,
        '--pushes',
        `${shape.pushes}`,
        '--agents',
        `${shape.agents}`,
        '--fleet',
        `${shape.fleet}`,
        '--json',
      ],
    });
    const r = JSON.parse(run.stdout) as PushLatencyReport;
    return {
      scenario: 'push-latency',
      status: 'ran',
      note: `P50 ${r.latencyMs.p50} ms, P99 ${r.latencyMs.p99} ms (target P99 < 2000 ms), ${r.missed} missed; per agent per minute ${r.perAgentPerMinute.requests} requests, ${r.perAgentPerMinute.bytes} bytes; a push costs each agent about ${r.pushPhase.perPushPerAgentBytes} bytes; a heartbeat push ${r.heartbeatPushes.first.bytes} bytes the first time, then ${r.heartbeatPushes.later.map((h) => h.bytes).join(', ')}`,
      parameters: { ...shape, pollMs: 1000, source: 'bench/push-latency.js' },
      contenders: [
        {
          name: 'push to the agent mirror holding it',
          side: 'gitfleet',
          ...spread(r.latencyMs.samples),
          peakRssMiB: null,
        },
      ],
      ratios: [],
      details: { ...r },
    };
  },
};
