// The published package as a user gets it: `npm pack`, the tarball installed in an empty
// directory (dependencies from the registry, or npm's cache), and from there `gitfleet --help`
// and the example (scripts/example.js, over the examples/fleet-repo the tarball carries). The
// Dockerfile installs that same tarball, so what is checked here is what the image runs.
//
// The tarball is packed from the build the test run made (--ignore-scripts: the prepack
// script's clean build would remove the compiled files the other tests are running from).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { repoRoot } from '../clusters/harness/ensure-binaries.js';

const root = repoRoot();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface PackedFile {
  path: string;
}

test('the tarball installs in an empty directory, and gitfleet --help and the example run from there', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-pack-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const packed = JSON.parse(
    execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
    }),
  ) as { filename: string; files: PackedFile[] }[];
  const { filename, files } = packed[0]!;
  const paths = files.map((f) => f.path);

  assert.ok(paths.includes('bin/gitfleet.js'));
  assert.ok(paths.includes('build/src/cli/main.js'));
  assert.ok(paths.includes('scripts/example.js'));
  assert.ok(paths.includes('examples/fleet-repo/fleet.yaml'));
  assert.ok(paths.includes('ui/index.html'), "the dashboard's page (gitfleet ui)");
  const stray = paths.filter(
    (p) =>
      !/^(bin\/|build\/src\/.*\.js$|examples\/fleet-repo\/|scripts\/example\.js$|ui\/[\w-]+\.(html|js|css|svg)$|package\.json$|README\.md$)/.test(
        p,
      ),
  );
  assert.deepEqual(stray, [], 'only what package.json `files` names (no tests, sources or source maps)');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  for (const bin of Object.values(pkg.bin)) assert.ok(paths.includes(bin), `${bin} is packed`);

  const user = join(dir, 'user');
  mkdirSync(user);
  writeFileSync(join(user, 'package.json'), JSON.stringify({ name: 'empty', private: true }));
  const install = spawnSync(
    npm,
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--omit=dev', join(dir, filename)],
    { cwd: user, encoding: 'utf8' },
  );
  assert.equal(
    install.status,
    0,
    `npm install of the tarball failed (is the registry reachable?):\n${install.stderr}`,
  );

  const help = spawnSync(join(user, 'node_modules/.bin/gitfleet'), ['--help'], {
    cwd: user,
    encoding: 'utf8',
  });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /gitfleet hub/);
  assert.match(help.stdout, /gitfleet agent/);

  const example = spawnSync(process.execPath, [join(user, 'node_modules/gitfleet/scripts/example.js')], {
    cwd: user,
    encoding: 'utf8',
  });
  assert.equal(example.status, 0, `${example.stdout}\n${example.stderr}`);
  assert.match(example.stdout, /gitfleet\/clusters\/aws-eu-prod/);
  const branches = execFileSync(
    'git',
    ['-C', join(user, 'out/example-repo'), 'branch', '--list', 'gitfleet/*'],
    {
      encoding: 'utf8',
    },
  );
  assert.match(
    branches,
    /gitfleet\/bindings/,
    'the example wrote into the user directory, not into the package',
  );
});
