#!/usr/bin/env node
// Real Kubernetes member clusters on this machine (etcd + kube-apiserver, plus controllers and
// kwok), started in the background and stopped again.
//
//   npm run clusters -- up [--count N] [--no-controllers] [--timeout SECONDS]
//   npm run clusters -- status
//   npm run clusters -- down [--keep]
//   eval "$(npm run --silent clusters -- env)"   # then: node --test build/test/kube/*.test.js
//
// State (pids, ports, logs, kubeconfig) lives in ${GITFLEET_CLUSTERS_DIR:-/tmp/gitfleet-clusters}.
// `up` prints the kubeconfig path on its last line; its contexts are member1..N.
import { parseArgs } from 'node:util';

const harness = new URL('../build/test/clusters/harness/', import.meta.url);
const load = (name) => import(new URL(`${name}.js`, harness).href);
const stateDir = process.env.GITFLEET_CLUSTERS_DIR || '/tmp/gitfleet-clusters';
const log = (line) => process.stderr.write(`${line}\n`);
const usage =
  'usage: npm run clusters -- up [--count N] [--no-controllers] [--timeout S] | status | env | down [--keep]';

async function up(args) {
  const { values } = parseArgs({
    args,
    options: {
      count: { type: 'string', default: '2' },
      'no-controllers': { type: 'boolean', default: false },
      timeout: { type: 'string', default: '240' },
    },
  });
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > 20)
    throw new Error(`--count must be 1..20, not ${values.count}`);
  const { clustersUp } = await load('clusters-up');
  const began = Date.now();
  const result = await clustersUp({
    count,
    stateDir,
    controllers: !values['no-controllers'],
    readyTimeoutMs: Number(values.timeout) * 1000,
    log,
  });
  if (result.type === 'AlreadyUp') {
    const names = result.state.clusters.map((c) => c.name).join(', ');
    log(`clusters already up in ${stateDir} (${names}); run \`npm run clusters -- down\` first`);
    return 1;
  }
  const { state } = result;
  log(
    `${count} cluster(s) up in ${((Date.now() - began) / 1000).toFixed(1)}s (controllers: ${state.controllers}, kwok: ${state.kwok})`,
  );
  for (const c of state.clusters) log(`  ${c.name}  ${c.server}`);
  log(`stop them with: npm run clusters -- down`);
  console.log(state.kubeconfig);
  return 0;
}

async function status() {
  const { clustersStatus } = await load('clusters-status');
  const result = await clustersStatus(stateDir);
  if (result.type === 'NothingUp') {
    console.log(`no clusters recorded in ${stateDir}`);
    return 0;
  }
  let healthy = true;
  for (const c of result.clusters) {
    const ready = c.readyz === 200 ? 'ready' : `not ready (${c.readyz || 'unreachable'})`;
    console.log(`${c.name}  ${c.server}  ${ready}`);
    for (const p of c.processes)
      console.log(
        `  ${p.component.padEnd(24)} pid ${String(p.pid).padEnd(8)} ${p.running ? 'running' : 'gone'}`,
      );
    healthy &&= c.readyz === 200 && c.processes.every((p) => p.running);
  }
  console.log(`kubeconfig: ${result.kubeconfig}`);
  return healthy ? 0 : 1;
}

async function env() {
  const [{ readClustersState }, { testEnv }] = await Promise.all([load('cluster-state'), load('test-env')]);
  const state = readClustersState(stateDir);
  if (state === undefined)
    throw new Error(`no clusters recorded in ${stateDir}; run \`npm run clusters -- up\` first`);
  for (const [key, value] of Object.entries(testEnv(state))) console.log(`export ${key}='${value}'`);
  return 0;
}

async function down(args) {
  const { values } = parseArgs({ args, options: { keep: { type: 'boolean', default: false } } });
  const { clustersDown } = await load('clusters-down');
  const result = await clustersDown({ stateDir, keep: values.keep, graceMs: 10_000 });
  if (result.type === 'NothingUp') {
    console.log(`no clusters recorded in ${stateDir}`);
    return 0;
  }
  const { report } = result;
  console.log(
    `stopped ${report.stopped} process(es)${report.killed.length ? `, ${report.killed.length} with SIGKILL` : ''}`,
  );
  if (report.survivors.length > 0) {
    console.log(`still running: ${report.survivors.map((p) => `${p.component} (pid ${p.pid})`).join(', ')}`);
    return 1;
  }
  console.log(result.removed ? `removed ${stateDir}` : `kept ${stateDir}`);
  return 0;
}

const [command, ...rest] = process.argv.slice(2);
const commands = { up, status, down, env };
if (!(command in commands)) {
  log(usage);
  process.exit(2);
}
try {
  process.exitCode = await commands[command](rest);
} catch (err) {
  log(`clusters ${command}: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
