// The commands that render sources (hub, render, validate) with a chart of a chart repository
// that requires basic auth, given --chart-credentials: each reads it the same way, and the
// password reaches none of their outputs: not stdout or stderr, not a file `render` writes, not
// a git object, ref or file of the hub's repository (its render store included).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './run-cli.js';
import { publishedWebChart, remoteChartSource, writeFiles, eastFleet } from '../support/chart-fixtures.js';
import {
  packageCharts,
  serveChartRepository,
  type TestChartRepository,
} from '../support/chart-repository.js';
import { renderTools } from '../support/render-tools.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;
const helm = 'missing' in tools ? '' : tools.helm;
const PASSWORD = 'cli-pa55word-never-shown';
const ENCODED = Buffer.from(`ci:${PASSWORD}`).toString('base64');

let served: TestChartRepository;
before(async () => {
  if (skip) return;
  const dir = packageCharts({
    helm,
    files: publishedWebChart({ version: '0.1.0', tag: '1.28' }),
    names: ['web'],
  });
  served = await serveChartRepository({ dir, auth: { username: 'ci', password: PASSWORD } });
});
after(async () => {
  await served?.stop();
  removeTempDirs();
});

function fleet(): Record<string, string> {
  return {
    ...eastFleet({ services: true }),
    'sources/web.yaml': remoteChartSource([`repoURL: ${served.url}`, 'name: web', 'version: 0.1.0']),
  };
}

function credentialsFile(password: string): string {
  const file = join(tempDir('cli-creds'), 'charts.yaml');
  writeFileSync(file, `${served.url}:\n  username: ci\n  password: ${password}\n`);
  return file;
}

/** Every file's text under a folder (git's objects unpacked by git itself). */
function everyText(dir: string): string[] {
  const texts: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else texts.push(readFileSync(path, 'latin1'));
    }
  };
  walk(dir);
  return texts;
}

function assertNoSecret(texts: string[]): void {
  for (const text of texts)
    assert.ok(!text.includes(PASSWORD) && !text.includes(ENCODED), text.slice(0, 300));
}

test(
  'render and validate read a chart repository with --chart-credentials, and print no secret',
  { skip },
  async () => {
    const repo = tempDir('cli-chart-fleet');
    writeFiles(repo, fleet());
    const out = join(tempDir('cli-chart-out'), 'out');
    const anonymous = await runCli(['validate', repo, '--helm', helm]);
    assert.equal(anonymous.code, 1);
    assert.match(
      anonymous.stderr,
      /answered 401: it needs credentials, and --chart-credentials has none for it/,
    );
    const wrong = await runCli([
      'validate',
      repo,
      '--helm',
      helm,
      '--chart-credentials',
      credentialsFile(`${PASSWORD}x`),
    ]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /the credentials of --chart-credentials were refused/);
    const file = credentialsFile(PASSWORD);
    const validate = await runCli(['validate', repo, '--helm', helm, '--chart-credentials', file]);
    assert.equal(validate.code, 0, validate.stderr);
    const render = await runCli(['render', repo, '--out', out, '--helm', helm, '--chart-credentials', file]);
    assert.equal(render.code, 0, render.stderr);
    assert.match(readFileSync(join(out, 'east/shop/Deployment.apps/web.yaml'), 'utf8'), /image: nginx:1\.28/);
    const bad = await runCli([
      'render',
      repo,
      '--out',
      out,
      '--helm',
      helm,
      '--chart-credentials',
      join(repo, 'nope.yaml'),
    ]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--chart-credentials .*nope\.yaml: cannot be read \(ENOENT\)/);
    assertNoSecret([anonymous, wrong, validate, render, bad].flatMap((r) => [r.stdout, r.stderr]));
    assertNoSecret(everyText(out));
  },
);

test(
  'hub --once renders the chart with --chart-credentials; no secret in its output, git objects or render store',
  { skip },
  async () => {
    const repo = tempDir('cli-chart-hub');
    writeFiles(repo, fleet());
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: repo,
        encoding: 'utf8',
      });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'fleet');
    const file = credentialsFile(PASSWORD);
    const run = await runCli(['hub', '--repo', repo, '--once', '--helm', helm, '--chart-credentials', file]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /east\s+updated/);
    const branch = git('show', 'gitfleet/clusters/east:shop/Deployment.apps/web.yaml');
    assert.match(branch, /image: nginx:1\.28/);
    const objects = git('cat-file', '--batch-all-objects', '--batch');
    assert.ok(
      readdirSync(join(repo, '.git', 'gitfleet', 'source-renders')).length > 0,
      'the render store is there',
    );
    assertNoSecret([run.stdout, run.stderr, objects, ...everyText(join(repo, '.git'))]);
  },
);
