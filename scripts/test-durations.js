// The wall time of each test file of a run (written by scripts/file-durations-reporter.js, one
// file per group in a temporary folder): the slowest printed at the end of the run, and all
// kept in the cache folder, so the next run starts the long files first.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** Returns the durations of one run of the tests under `root`/build/test. */
export function testDurations(root) {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-test-durations-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const cache = join(process.env.GITFLEET_CACHE ?? join(homedir(), '.cache/gitfleet'), 'test-durations.json');
  const testPath = (file) => relative(join(root, 'build/test'), file);
  /** The durations of the last run by test path, or undefined when none were kept. */
  const lastRun = () => {
    try {
      return JSON.parse(readFileSync(cache, 'utf8'));
    } catch {
      return undefined;
    }
  };
  /** The durations written so far: {group, file, ms}. */
  const rows = () =>
    readdirSync(dir).flatMap((group) =>
      readFileSync(join(dir, group), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => ({ group, ...JSON.parse(line) })),
    );
  return {
    /** The file the reporter of `group` writes to. */
    destination: (group) => join(dir, group),
    /** Prints the `count` slowest files of the groups run so far, with their wall times. */
    printSlowest(count) {
      const all = rows().sort((a, b) => b.ms - a.ms);
      if (all.length === 0) return;
      console.log(`slowest ${Math.min(count, all.length)} of ${all.length} test files (wall time of each):`);
      for (const r of all.slice(0, count))
        console.log(
          `${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.group.padEnd(9)} ${relative(root, r.file)}`,
        );
    },
    /** Keeps this run's durations (and the earlier ones of files it did not run) for the next run. */
    save() {
      const before = existsSync(cache) ? JSON.parse(readFileSync(cache, 'utf8')) : {};
      const now = Object.fromEntries(rows().map((r) => [testPath(r.file), r.ms]));
      mkdirSync(dirname(cache), { recursive: true });
      writeFileSync(cache, `${JSON.stringify({ ...before, ...now }, null, 1)}\n`);
    },
    /**
     * Returns `files` longest first by their durations in the last run (files never timed
     * first, in their order): with a few at a time, a long file started last runs on alone.
     */
    longestFirst(files) {
      const last = lastRun();
      if (last === undefined) return files;
      const ms = (f) => last[testPath(f)] ?? Number.MAX_SAFE_INTEGER;
      return [...files].sort((a, b) => ms(b) - ms(a));
    },
    /**
     * Returns `files` dealt into `count` lists of about the same total duration in the last run:
     * longest first, each to the list with the least so far (files never timed count as long as
     * the longest timed one, so they spread too). Each list is longest first.
     */
    spread(files, count) {
      const last = lastRun() ?? {};
      const longest = Math.max(1, ...files.map((f) => last[testPath(f)] ?? 0));
      const ms = (f) => last[testPath(f)] ?? longest;
      const lanes = Array.from({ length: count }, () => ({ files: [], ms: 0 }));
      for (const f of this.longestFirst(files)) {
        const lane = lanes.reduce((a, b) => (b.ms < a.ms ? b : a));
        lane.files.push(f);
        lane.ms += ms(f);
      }
      return lanes.map((lane) => lane.files);
    },
  };
}
