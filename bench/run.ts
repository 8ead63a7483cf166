// The benchmarks, side by side with what users do without gitfleet, in one run:
//
//   npm run bench                                   every scenario (several minutes)
//   npm run bench -- --scenario NAME [--quick]      one scenario (--quick: small, under a minute)
//   npm run bench -- --json                         one JSON document instead of text
//   npm run bench -- --runs N --all-overlays        more repetitions; render: every kustomize overlay
//   npm run bench -- --scenario budget --clusters N the budget scenario at another fleet size
//
// Contenders run alternately (A B A B …) in fresh child processes; each reports the median,
// minimum and maximum of its repetitions (5 by default, 3 with --quick) and its peak RSS.
// Progress goes to stderr, the result to stdout.
import { parseArgs } from 'node:util';
import { apply10kScenario, applyScenario } from './bench-apply.js';
import { pushLatencyScenario } from './push-latency-scenario.js';
import { doorbellScenario } from './doorbell.js';
import { budgetScenario } from './budget.js';
import { commitScenario } from './bench-commit.js';
import { incrementalScenario } from './bench-incremental.js';
import { runRenderScenario, renderScenario } from './bench-render.js';
import { formatMachine, formatScenario, formatSummaryTable } from './lib/format-report.js';
import { machineInfo } from './lib/machine.js';
import { failed, type Scenario, type ScenarioOptions, type ScenarioReport } from './lib/report.js';
import { scaleScenario } from './scale.js';
import { hubScaleScenario, render10kScenario } from './hub-scale.js';
import { hubPushScenario } from './hub-push.js';
import { failoverScenario } from './failover.js';
import { chaosScenario } from './chaos.js';
import { rolloutScenario } from './rollout.js';
import { soakScenario } from './soak.js';
import { statusScenario } from './status.js';
import { uiMatrixScenario } from './ui-matrix.js';
import { signingScenario } from './signing.js';
import { logScenario } from './log.js';
import { cliStartScenario } from './cli-start.js';
import { templateSourcesScenario } from './template-sources.js';

const scenarios: Scenario[] = [
  renderScenario,
  commitScenario,
  incrementalScenario,
  applyScenario,
  apply10kScenario,
  pushLatencyScenario,
  doorbellScenario,
  budgetScenario,
  scaleScenario,
  hubScaleScenario,
  hubPushScenario,
  render10kScenario,
  failoverScenario,
  chaosScenario,
  rolloutScenario,
  soakScenario,
  statusScenario,
  uiMatrixScenario,
  signingScenario,
  logScenario,
  templateSourcesScenario,
  cliStartScenario,
];

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', multiple: true },
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    runs: { type: 'string' },
    'all-overlays': { type: 'boolean', default: false },
    clusters: { type: 'string' },
    list: { type: 'boolean', default: false },
  },
});

if (values.list) {
  for (const s of scenarios) console.log(`${s.name.padEnd(12)} ${s.summary}`);
  process.exit(0);
}
const chosen = values.scenario ?? scenarios.map((s) => s.name);
const unknown = chosen.filter((name) => !scenarios.some((s) => s.name === name));
if (unknown.length > 0) {
  console.error(`unknown scenario ${unknown.join(', ')}; one of: ${scenarios.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const runs = values.runs === undefined ? (values.quick ? 3 : 5) : Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a positive integer, not ${values.runs}`);
  process.exit(2);
}

const clusters = values.clusters === undefined ? undefined : Number(values.clusters);
if (clusters !== undefined && !(Number.isInteger(clusters) && clusters > 0)) {
  console.error(`--clusters must be a positive integer, not ${values.clusters}`);
  process.exit(2);
}
const machine = machineInfo();
const log = (line: string) => process.stderr.write(`${line}\n`);
const opts: ScenarioOptions = { quick: values.quick, runs, log, ...(clusters ? { clusters } : {}) };
log(`gitfleet bench: ${chosen.join(', ')}; ${runs} runs each${values.quick ? ', quick' : ''}`);
log(`machine: ${formatMachine(machine)}`);
const began = performance.now();
const reports: ScenarioReport[] = [];
for (const scenario of scenarios.filter((s) => chosen.includes(s.name))) {
  log(`-- ${scenario.name}: ${scenario.summary}`);
  const report = await (
    scenario === renderScenario
      ? runRenderScenario({ ...opts, allOverlays: values['all-overlays'] })
      : scenario.run(opts)
  ).catch((error: unknown) => failed(scenario.name, error));
  if (report.status === 'failed') log(`${scenario.name} failed: ${report.note}`);
  reports.push(report);
  if (!values.json) console.log(`${formatScenario(report)}\n`);
}
const durationS = Math.round((performance.now() - began) / 1000);
const loadAfter = machineInfo().loadAverage;
if (values.json) {
  console.log(
    JSON.stringify(
      { machine, loadAverageAtEnd: loadAfter, quick: values.quick, runs, durationS, scenarios: reports },
      null,
      2,
    ),
  );
} else {
  console.log(`machine: ${formatMachine(machine)}; at the end ${loadAfter.join(' ')}`);
  console.log(`took ${durationS} s\n\n${formatSummaryTable(reports)}`);
}
if (reports.some((r) => r.status === 'failed')) process.exitCode = 1;
