// `gitfleet --help`, the usage and `<command> --help` read only the commands' declarations
// (commands/*-spec.ts and the *-flags.ts they import), never a command's code: a real process,
// its loaded modules listed by a loader hook. The libraries named here are what a command's code
// loads (CEL, the metrics library, age, OpenPGP, the Kubernetes lease client); declarations
// that import one of them again make every help a full start.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../loops/hub/hub-fixture.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeTempDirs);

const heavy = ['@bufbuild/cel', 'prom-client', 'age-encryption', 'openpgp', 'wasmoon', 'lease-election'];

/** Runs bin/gitfleet.js with the arguments; returns its exit code and every module it loaded (Node's own aside). */
function modulesOf(args: readonly string[]): { code: number | null; modules: string[] } {
  const dir = tempDir('gitfleet-help-modules-');
  const list = join(dir, 'modules.txt');
  writeFileSync(list, '');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  if (!url.startsWith('node:')) appendFileSync(${JSON.stringify(list)}, url + '\\n');\n  return next(url, context);\n}\n`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${join(dir, 'hooks.mjs')}`)});\n`,
  );
  const run = spawnSync(
    process.execPath,
    ['--import', join(dir, 'register.mjs'), join(repoRoot, 'bin/gitfleet.js'), ...args],
    { encoding: 'utf8' },
  );
  return { code: run.status, modules: readFileSync(list, 'utf8').split('\n').filter(Boolean) };
}

for (const args of [
  ['--help'],
  [],
  ['hub', '--help'],
  ['agent', '--help'],
  ['help', 'render'],
  ['ui', '--help'],
]) {
  test(`gitfleet ${args.join(' ') || '(no command)'} loads no command's code`, () => {
    const { code, modules } = modulesOf(args);
    assert.equal(code, args.length === 0 ? 2 : 0);
    assert.ok(
      modules.some((m) => m.endsWith('/cli/main.js')),
      'the hook saw the CLI load',
    );
    const loaded = heavy.filter((name) => modules.some((m) => m.includes(name)));
    assert.deepEqual(loaded, [], `modules:\n${modules.join('\n')}`);
    const commands = modules.filter((m) => /\/cli\/commands\/(hub|agent|render|ui)\.js$/.test(m));
    assert.deepEqual(commands, []);
  });
}

test('a command that runs loads its code', () => {
  const { modules } = modulesOf([
    'render',
    join(repoRoot, 'examples/fleet-repo'),
    '--out',
    tempDir('gitfleet-help-out-'),
  ]);
  assert.ok(modules.some((m) => m.endsWith('/cli/commands/render.js')));
  assert.ok(
    modules.some((m) => m.includes('@bufbuild/cel')),
    'the render loads CEL: the hook sees libraries',
  );
});
