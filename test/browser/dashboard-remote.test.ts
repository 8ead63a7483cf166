// `gitfleet ui --repo <url>`: the dashboard of a repository served over real smart HTTP (git's
// own http-backend, test/git-server), read through a fetched mirror and fetched again every
// --interval. An agent's new status report on the served repository reaches the open page
// without a reload, and the credentials in the URL never reach the page.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { removeFleetRepos, type FleetRepo } from '../loops/hub/hub-fixture.js';
import { startGitServer, type GitServer } from '../git-server/start-git-server.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { renderedExample, writeFleetStatus, writeReport } from './dashboard-fixture.js';
import { launchChromium, skipReason, type Browser } from './launch-chromium.js';
import { startUi, type UiProcess } from './ui-process.js';

const password = 'url-password-5f4dcc3b';

let served: FleetRepo;
let server: GitServer;
let ui: UiProcess;
let browser: Browser;
let page: Page;

before(async () => {
  if (skipReason) return;
  const local = renderedExample();
  writeFleetStatus(local);
  const root = tempDir('served');
  const gitdir = join(root, 'fleet.git');
  execFileSync('git', ['clone', '-q', '--mirror', local.gitdir, gitdir]);
  served = { work: local.work, path: gitdir, gitdir, bare: true };
  server = await startGitServer({ root });
  const url = server.url('fleet.git').replace('http://', `http://viewer:${password}@`);
  ui = await startUi(url, ['--interval', '500ms', '--cache-dir', tempDir('mirrors')]);
  browser = await launchChromium();
  page = await browser.context.newPage();
});

after(async () => {
  if (skipReason) return;
  await browser?.close();
  assert.equal(await ui?.stop(), 0);
  await server?.close();
  removeFleetRepos();
  removeTempDirs();
});

test(
  'a repository URL is shown from its mirror, and a status pushed there reaches the open page',
  { skip: skipReason },
  async () => {
    await page.goto(`${ui.url}/#/clusters`);
    await page.waitForSelector('body[data-route="#/clusters"] #clusters');
    const degraded = () =>
      page.textContent('#clusters tr[data-cluster="aws-eu-prod"] td[data-health="Degraded"]');
    assert.equal(await degraded(), '1');
    assert.match((await page.textContent('#repo')) ?? '', /^http:\/\/127\.0\.0\.1:\d+\/fleet\.git$/);
    await page.evaluate('window.notReloaded = true');
    // The agent of aws-eu-prod reports every object Healthy, on the served repository.
    writeReport(served, 'aws-eu-prod', {
      ready: 'True',
      version: 'v1.31.2',
      applied: true,
      health: () => 'Healthy',
    });
    await page.waitForSelector(
      '#clusters tr[data-cluster="aws-eu-prod"] td[data-health="Degraded"]:text-is("0")',
      {
        timeout: 30_000,
      },
    );
    assert.equal(await page.evaluate('window.notReloaded'), true, 'the page was not reloaded');
    const html = await page.content();
    assert.ok(!html.includes(password), "the URL's password is not on the page");
    const overview = await (
      await fetch(`${ui.url}/api/overview`, { signal: AbortSignal.timeout(10_000) })
    ).text();
    assert.ok(!overview.includes(password), "the URL's password is not in the API");
  },
);
