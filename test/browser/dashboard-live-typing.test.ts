// A live update must not take the keyboard away from someone typing in the matrix's label
// filter: `gitfleet ui` runs as a process on a repository written by a real `gitfleet hub --once`
// (dashboard-fixture.ts), headless Chromium types into the filter key by key (the keyboard, not
// a fill that would put the focus back itself), and an agent's status commit lands meanwhile,
// so the server reads again and the page is drawn anew. The field keeps the focus, every key
// typed before, during and after the update is in it, and the filter applies to the new data.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { removeFleetRepos, type FleetRepo } from '../loops/hub/hub-fixture.js';
import { removeTempDirs } from '../support/temp-dirs.js';
import { renderedExample, writeFleetStatus, writeReport } from './dashboard-fixture.js';
import { launchChromium, skipReason, type Browser } from './launch-chromium.js';
import { startUi, type UiProcess } from './ui-process.js';

let repo: FleetRepo;
let ui: UiProcess;
let browser: Browser;
let page: Page;

before(async () => {
  if (skipReason) return;
  repo = renderedExample();
  writeFleetStatus(repo);
  ui = await startUi(repo.path);
  browser = await launchChromium();
  page = await browser.context.newPage();
});

after(async () => {
  if (skipReason) return;
  await browser?.close();
  assert.equal(await ui?.stop(), 0, 'gitfleet ui exits 0 on SIGTERM');
  removeFleetRepos();
  removeTempDirs();
});

const generation = async () => Number(await page.getAttribute('body', 'data-generation'));
const rows = async () => Number(await page.getAttribute('#matrix-scroll', 'data-rows'));

test(
  'typing in the label filter while a live update arrives keeps the focus and every key typed',
  { skip: skipReason },
  async () => {
    const filter = 'app.kubernetes.io/name=web';
    // The rows the whole filter leaves, in another tab that no update disturbs.
    const other = await browser.context.newPage();
    await other.goto(`${ui.url}/#/matrix`);
    await other.waitForSelector('body[data-route="#/matrix"] #matrix-page[data-drawn]');
    await other.fill('#filter-label', filter);
    const filtered = Number(await other.getAttribute('#matrix-scroll', 'data-rows'));
    await other.close();
    assert.ok(filtered > 0, 'some template carries the label');

    await page.goto(`${ui.url}/#/matrix`);
    await page.waitForSelector('body[data-route="#/matrix"] #matrix-page[data-drawn]');
    const total = await rows();
    assert.ok(filtered < total, `the filter leaves fewer rows (${filtered} of ${total})`);
    const before = await generation();
    await page.click('#filter-label');
    await page.keyboard.type('app.kube', { delay: 20 });
    // An agent reports: the server reads the repository again and tells the page.
    writeReport(repo, 'aws-eu-prod', {
      ready: 'True',
      version: 'v1.31.2',
      applied: true,
      health: () => 'Healthy',
    });
    await page.keyboard.type('rnetes.io/', { delay: 60 });
    await page.waitForFunction(
      (g) =>
        Number(
          (globalThis as unknown as { document: { body: { dataset: { generation?: string } } } }).document
            .body.dataset.generation,
        ) > g,
      before,
      { timeout: 30_000 },
    );
    assert.equal(
      await page.evaluate('document.activeElement && document.activeElement.id'),
      'filter-label',
      'the filter keeps the focus after the update',
    );
    await page.keyboard.type('name=web', { delay: 20 });
    assert.equal(await page.inputValue('#filter-label'), filter, 'every key typed is in the field');
    assert.equal(await rows(), filtered, 'the filter applies to the page drawn from the new data');
    const caret = await page.evaluate('document.activeElement.selectionStart');
    assert.equal(caret, filter.length, 'the caret stays at the end of the text');
  },
);
