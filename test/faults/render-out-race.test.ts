// Fault: while renders run, another process swaps directories of the output for symbolic links
// to a directory outside it, and back, in a loop (after the render's listing, before its writes:
// the window O_NOFOLLOW on the last component does not close). Over many rounds nothing may be
// written, changed or deleted outside the output directory. And a hard link to an output file
// (a `cp -al` backup) keeps its content when the render changes the file.
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { writeRenderDir } from '../../src/adapters/output/write-render-dir.js';

const root = mkdtempSync(join(tmpdir(), 'gitfleet-render-race-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Every file under dir, relative, with its content. */
function snapshotOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

/** Round r's render: every file's text changes each round; `old-*` files exist on even rounds only. */
function renderOf(round: number): Map<string, Map<string, string>> {
  const files = new Map<string, string>();
  for (let i = 0; i < 40; i++) files.set(`default/ConfigMap/cm-${i}.yaml`, `round: ${round}\ni: ${i}\n`);
  if (round % 2 === 0)
    for (let i = 0; i < 10; i++) files.set(`default/ConfigMap/old-${i}.yaml`, `old ${i}\n`);
  files.set('_cluster/Namespace/default.yaml', `round: ${round}\n`);
  return new Map([
    ['c1', files],
    ['c2', new Map(files)],
  ]);
}

// The swapper: moves a directory aside, puts a symlink to `outside` in its place, waits a moment,
// and puts the directory back, for each target in turn, until killed.
const swapper = `
const fs = require('node:fs');
const [outside, ...targets] = process.argv.slice(1);
let n = 0;
for (;;) {
  const t = targets[n++ % targets.length];
  try { fs.renameSync(t, t + '.away'); } catch { continue; }
  try { fs.symlinkSync(outside, t); } catch {}
  const until = Date.now() + 1 + (n % 3);
  while (Date.now() < until) {}
  try { fs.unlinkSync(t); } catch {}
  try { fs.renameSync(t + '.away', t); } catch {}
}
`;

// This failed now and then (a removal of outside/ConfigMap/old-1.yaml through c1/default, files
// written into the outside directory through c2) while a render that met a link still had writes
// in flight: mapConcurrent rejected at the first failure and let its other workers go on, the
// render closed its directory handles, and handles used after close fell back to full paths.
test('Directories swapped for symlinks during 60 renders never lead a write or a removal outside the output.', async () => {
  const out = join(root, 'out');
  const outside = join(root, 'outside');
  // What a write or removal through a link would hit: the same names as the rendered files.
  for (const sub of ['', 'ConfigMap', 'default/ConfigMap'])
    mkdirSync(join(outside, sub), { recursive: true });
  for (let i = 0; i < 40; i++) writeFileSync(join(outside, 'ConfigMap', `cm-${i}.yaml`), 'precious\n');
  for (let i = 0; i < 10; i++) writeFileSync(join(outside, 'ConfigMap', `old-${i}.yaml`), 'precious\n');
  writeFileSync(join(outside, 'default', 'ConfigMap', 'cm-0.yaml'), 'precious\n');
  writeFileSync(join(outside, 'default.yaml'), 'precious\n');
  const before = snapshotOf(outside);
  await writeRenderDir(out, renderOf(0));
  const targets = ['c1/default', 'c1/default/ConfigMap', 'c2', 'c2/_cluster/Namespace', 'c1/_cluster'].map(
    (t) => join(out, t),
  );
  const child = spawn(process.execPath, ['-e', swapper, outside, ...targets], { stdio: 'ignore' });
  let refused = 0;
  try {
    for (let round = 1; round <= 60; round++) {
      try {
        await writeRenderDir(out, renderOf(round));
      } catch {
        refused++; // A render that meets a link refuses or fails: that is allowed, writing through it is not.
      }
    }
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  assert.deepEqual(snapshotOf(outside), before, 'something outside the output changed');
  // The rounds ran into the swaps (else the test proves nothing).
  assert.ok(refused > 0, 'no render met a swapped directory');
});

test('A hard link to an output file (a cp -al backup) keeps its content when the render changes the file.', async () => {
  const out = join(root, 'out-linked');
  const backup = join(root, 'backup');
  await writeRenderDir(out, renderOf(0));
  execFileSync('cp', ['-al', out, backup]);
  const file = join('c1', 'default', 'ConfigMap', 'cm-3.yaml');
  assert.equal(statSync(join(out, file)).nlink, 2);

  await writeRenderDir(out, renderOf(1));

  assert.equal(readFileSync(join(out, file), 'utf8'), 'round: 1\ni: 3\n');
  assert.equal(readFileSync(join(backup, file), 'utf8'), 'round: 0\ni: 3\n');
  assert.equal(readFileSync(join(backup, '.gitfleet-render'), 'utf8').length > 0, true);
  assert.equal(statSync(join(backup, file)).nlink, 1);
});
