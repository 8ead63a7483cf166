#!/usr/bin/env node
// Runs the compiled test suite with Node's test runner and prints one closing line
// "N passed, N failed, N skipped" over every group.
//
//   node scripts/run-tests.js            every group
//   node scripts/run-tests.js unit       only tests that need no Kubernetes API server
//
// Groups whose tests need real member clusters (test/kube, test/e2e) run after the test
// clusters are built (test/clusters/build.sh, cached) and started once for the whole group;
// they are stopped again however the run ends. The render tools of the template source tests
// (helm, kustomize: tools/go-render/build.sh, cached the same way) are built before any group.
// sops and age for the secrets tests are built first too (test/tools/build-sops.sh, cached)
// and named in GITFLEET_SOPS_BIN. At the end it prints the slowest files (each file's wall
// time, from scripts/file-durations-reporter.js), so whoever makes the suite faster starts there.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

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

const durationsDir = mkdtempSync(join(tmpdir(), 'gitfleet-test-durations-'));
process.on('exit', () => rmSync(durationsDir, { recursive: true, force: true }));

/** Prints the `count` slowest files of the groups run so far, with their wall times. */
function printSlowest(count) {
  const rows = readdirSync(durationsDir).flatMap((group) =>
    readFileSync(join(durationsDir, group), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => ({ group, ...JSON.parse(line) })),
  );
  if (rows.length === 0) return;
  rows.sort((a, b) => b.ms - a.ms);
  console.log(
    `slowest ${Math.min(count, rows.length)} of ${rows.length} test files (wall time of each file):`,
  );
  for (const r of rows.slice(0, count))
    console.log(`${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.group.padEnd(8)} ${relative(root, r.file)}`);
}

function runNodeTests(group, files, env, concurrency) {
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
        `--test-reporter-destination=${join(durationsDir, group)}`,
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
      process.stdout.write(chunk);
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
const kubeDirs = ['kube', 'e2e'];
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
const total = await runNodeTests(
  'unit',
  plainFiles,
  sopsBin ? { GITFLEET_SOPS_BIN: sopsBin } : {},
  unitConcurrency,
);
if (interrupted) {
  printSlowest(15);
  console.log(`${total.pass} passed, ${total.fail} failed, ${total.skipped} skipped (interrupted)`);
  process.exit(130);
}
if (kubeFiles.length > 0) {
  const { withTestClusters } = await import('../build/test/clusters/harness/with-test-clusters.js');
  const kube = await withTestClusters({ count: 2 }, (env) =>
    runNodeTests('clusters', kubeFiles, { ...env, ...(sopsBin ? { GITFLEET_SOPS_BIN: sopsBin } : {}) }, 1),
  );
  for (const key of Object.keys(total)) total[key] += kube[key];
}
printSlowest(15);
console.log(`${total.pass} passed, ${total.fail} failed, ${total.skipped} skipped`);
process.exitCode = total.fail > 0 ? 1 : 0;
