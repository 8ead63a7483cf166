// The dashboard's pages on the benchmark's big fleet (bench/ui-matrix.ts), to be looked at: each
// page opened once at a laptop's 1366×768 in a fresh browser context, checked as the browser
// tests check the small fleet's (assertReadable: nothing wider than the window, every date on
// one line) and written as a screenshot to test-output/ui-big-fleet/<page>.png. The time from
// navigation start to the page drawn is reported beside it, as a figure to read, not a goal.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { repoRoot } from '../test/loops/hub/hub-fixture.js';
import { chromiumFlags, chromiumPath } from '../test/browser/launch-chromium.js';
import { assertReadable } from '../test/browser/dashboard-session.js';

/** One page looked at: where its screenshot is, how long it took to draw, and what did not read. */
export interface PageShot {
  page: string;
  file: string;
  drawnMs: number;
  /** The readability check's message when the page failed it. */
  unreadable?: string;
}

/** Opens every page of the dashboard at `url` (a cluster's and a template's named), checks and photographs each. */
export async function pageShots(
  url: string,
  pick: { cluster: string; templateKey: string },
): Promise<PageShot[]> {
  const dir = join(repoRoot, 'test-output', 'ui-big-fleet');
  mkdirSync(dir, { recursive: true });
  const pages: [string, string, string][] = [
    ['templates', '#/templates', '#templates'],
    ['clusters', '#/clusters', '#clusters'],
    ['matrix', '#/matrix', '#matrix-page[data-drawn]'],
    ['cluster', `#/cluster/${pick.cluster}`, '#cluster-page'],
    ['template', `#/template/${encodeURIComponent(pick.templateKey)}`, '#template-page'],
    ['rollouts', '#/rollouts', '#rollouts-page'],
    ['evictions', '#/evictions', '#evictions-page'],
  ];
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: chromiumFlags,
  });
  try {
    const out: PageShot[] = [];
    for (const [name, hash, ready] of pages) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
      const page = await context.newPage();
      await page.goto(`${url}/${hash}`);
      await page.waitForSelector(`body[data-route="${hash}"] ${ready}`, { timeout: 300_000 });
      const drawnMs = Math.round((await page.evaluate('performance.now()')) as number);
      const file = join(dir, `${name}.png`);
      let unreadable: string | undefined;
      await assertReadable(page, name).catch((e: Error) => (unreadable = e.message));
      await page.screenshot({ path: file });
      out.push({ page: name, file, drawnMs, ...(unreadable !== undefined ? { unreadable } : {}) });
      await context.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}
