#!/usr/bin/env node
// Runs the compiled test suite with Node's test runner and prints one closing line
// "N passed, N failed, N skipped" over every group.
//
//   node scripts/run-tests.js            every group
//   node scripts/run-tests.js unit       only tests that need no Kubernetes API server
//
// Groups whose tests need real member clusters (test/kube, test/e2e) run once the test
// clusters are built (test/clusters/build.sh, cached) and started, a pair for each lane of the
// group (see below); they are stopped again however the run ends. The render tools of the template source tests
// (helm, kustomize: tools/go-render/build.sh, cached the same way) are built before any group.
// sops and age for the secrets tests are built first too (test/tools/build-sops.sh, cached)
// and named in GITFLEET_SOPS_BIN.
//
// The cluster group runs beside the unit group, not after it (GITFLEET_TEST_OVERLAP=0: after
// it): its files mostly wait on the clusters' own periods (leases, progress deadlines,
// controllers) and leave the CPU to the unit files. Its output is held back until the unit group
// is done, then printed as it comes, one lane after the other. The unit files start longest first, by their durations in
// the last run, and the run ends with the slowest files (scripts/test-durations.js), so whoever
// makes the suite faster sees where the time goes.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { testDurations } from './test-durations.js';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv[2];

function findTests(dir) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (entry.endsWith('.test.js')) found.push(path);
  }
  return found;
}

const durations = testDurations(root);

/** Where a group's output goes: straight to stdout, or held back until `flush` (then straight through). */
function outputSink(live) {
  const held = [];
  return {
    write: (chunk) => (live ? process.stdout.write(chunk) : held.push(chunk)),
    flush: () => {
      live = true;
      for (const chunk of held.splice(0)) process.stdout.write(chunk);
    },
  };
}

function runNodeTests(group, files, env, concurrency, out = outputSink(true)) {
  return new Promise((resolve) => {
    const counts = { pass: 0, fail: 0, skipped: 0 };
    if (files.length === 0) return resolve(counts);
    const child = spawn(
      process.execPath,
      [
        '--test',
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        `--test-reporter=${join(root, 'scripts/file-durations-reporter.js')}`,
        `--test-reporter-destination=${durations.destination(group)}`,
        '--test-timeout=600000',
        `--test-concurrency=${concurrency}`,
        ...files,
      ],
      {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    // A signal to this runner reaches the test process too, so nothing outlives the run.
    const forward = (signal) => {
      interrupted = true;
      child.kill(signal);
    };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    // The summary lines (ℹ pass N, …) can be followed by long failure details, so every
    // line is scanned as it streams and the last value of each count wins.
    let pending = '';
    const scan = (line) => {
      for (const key of Object.keys(counts)) {
        const m = line.match(new RegExp(`^ℹ ${key} (\\d+)$`));
        if (m) counts[key] = Number(m[1]);
      }
    };
    child.stdout.on('data', (chunk) => {
      out.write(chunk);
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      lines.forEach(scan);
    });
    child.on('close', (code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      scan(pending);
      if (code !== 0 && counts.fail === 0) counts.fail = 1;
      resolve(counts);
    });
  });
}

// A warm build only checks the binaries are there; a cold one builds them from the Go module proxy.
const tools = spawnSync(join(root, 'tools/go-render/build.sh'), { stdio: ['ignore', 'ignore', 'inherit'] });
if (tools.status !== 0)
  console.log('helm and kustomize did not build: the template source tests skip, saying why');

let interrupted = false;
// The end-to-end files first: with no durations kept yet they are the long ones, dealt first.
const kubeDirs = ['e2e', 'kube'];
const plainFiles = readdirSync(join(root, 'build/test'))
  .filter((d) => statSync(join(root, 'build/test', d)).isDirectory() && !kubeDirs.includes(d))
  .flatMap((d) => findTests(join(root, 'build/test', d)));
const kubeFiles = only === 'unit' ? [] : kubeDirs.flatMap((d) => findTests(join(root, 'build/test', d)));

// sops and age for the secrets tests; a build that fails leaves them to skip, saying why.
const sops = spawnSync('bash', [join(root, 'test/tools/build-sops.sh')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const sopsBin = sops.status === 0 ? sops.stdout.toString().trim().split('\n').pop() : undefined;
// Most test files wait on processes they start (git, the hub, agents, a browser), so the files
// without clusters run a few at a time even on two cores; the files with clusters share the two
// test clusters and run one at a time.
const unitConcurrency = Number(process.env.GITFLEET_TEST_CONCURRENCY ?? 3);
const overlap = process.env.GITFLEET_TEST_OVERLAP !== '0';
const sopsEnv = sopsBin ? { GITFLEET_SOPS_BIN: sopsBin } : {};
const began = Date.now();
const took = {};
const timed = (group, run) => run().then((counts) => ((took[group] = (Date.now() - began) / 1000), counts));

// The cluster group runs in lanes (GITFLEET_CLUSTER_LANES, default 2), one file at a time in
// each, and every lane starts a pair of test clusters of its own: two files that run at once
// never share an API server, so they cannot meet in a namespace, a cluster-scoped object or a
// CRD. (The ports, temporary folders and caches they use they share with the unit files beside
// them already.) The files are dealt to the lanes longest first by the last run's durations, so
// the lanes end about together.
const laneCount = Number(process.env.GITFLEET_CLUSTER_LANES ?? 2);
if (!Number.isInteger(laneCount) || laneCount < 1)
  throw new Error(
    `GITFLEET_CLUSTER_LANES=${process.env.GITFLEET_CLUSTER_LANES}: a whole number of lanes, 1 or more`,
  );
const clusterLanes = durations.spread(kubeFiles, laneCount).filter((files) => files.length > 0);

/** The lanes' output in lane order: a lane's shows once `open()` was called and the lanes before it are done. */
function laneOutputs(count, live) {
  const sinks = Array.from({ length: count }, () => outputSink(false));
  const done = Array.from({ length: count }, () => false);
  const show = () => {
    if (!live) return;
    for (let i = 0; i < count; i++) {
      sinks[i].flush();
      if (!done[i]) return;
    }
  };
  return {
    sinks,
    open: () => ((live = true), show()),
    finished: (lane) => ((done[lane] = true), show()),
  };
}

async function runClusterLane(lane, files, out) {
  const { withTestClusters } = await import('../build/test/clusters/harness/with-test-clusters.js');
  return withTestClusters({ count: 2 }, (env) =>
    runNodeTests(`clusters${lane + 1}`, files, { ...env, ...sopsEnv }, 1, out),
  );
}

const kubeOut = laneOutputs(clusterLanes.length, !overlap);
/** Runs the lanes side by side and adds up their counts; throws the first lane's error once all are done. */
async function clusterGroup() {
  const lanes = clusterLanes.map((files, lane) =>
    timed(`clusters${lane + 1}`, () => runClusterLane(lane, files, kubeOut.sinks[lane])).finally(() =>
      kubeOut.finished(lane),
    ),
  );
  const total = { pass: 0, fail: 0, skipped: 0 };
  for (const lane of await Promise.allSettled(lanes)) {
    if (lane.status === 'rejected') throw lane.reason;
    for (const key of Object.keys(total)) total[key] += lane.value[key];
  }
  return total;
}
// Settled at once, so clusters that fail to start do not end the run while the unit group goes on.
const settle = (run) =>
  run.then(
    (counts) => ({ counts }),
    (error) => ({ error }),
  );
const kubeRun = overlap ? settle(clusterGroup()) : undefined;
const total = await timed('unit', () =>
  runNodeTests('unit', durations.longestFirst(plainFiles), sopsEnv, unitConcurrency),
);
kubeOut.open();
if (interrupted && !overlap) {
  durations.printSlowest(15);
  console.log(`${total.pass} passed, ${total.fail} failed, ${total.skipped} skipped (interrupted)`);
  process.exit(130);
}
const kubeResult = await (kubeRun ?? settle(clusterGroup()));
if ('error' in kubeResult) throw kubeResult.error;
const kube = kubeResult.counts;
for (const key of Object.keys(total)) total[key] += kube[key];
durations.printSlowest(15);
durations.save();
const groups = Object.entries(took).map(([group, s]) => `${group} done at ${Math.round(s)} s`);
console.log(`${groups.join(', ')}${overlap ? ' (side by side)' : ''}`);
console.log(
  `${total.pass} passed, ${total.fail} failed, ${total.skipped} skipped${interrupted ? ' (interrupted)' : ''}`,
);
process.exitCode = interrupted ? 130 : total.fail > 0 ? 1 : 0;
