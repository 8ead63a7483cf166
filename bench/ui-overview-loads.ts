// The dashboard's overview of templates on the benchmark's big fleet (bench/ui-matrix.ts): each
// run opens `#/templates` in a fresh browser context and reads the page's own marks
// (`page-drawn-templates`, ui/app.js): the overview document (health, sync and reason of every
// template) fetched and its first lines drawn, then a word typed in the search box and the
// filtered list drawn again. The server computes the overview once per state of the repository,
// on its first request, which the first run's load includes.
import { chromium } from 'playwright-core';
import { chromiumFlags, chromiumPath } from '../test/browser/launch-chromium.js';

/** One run: navigation start → overview drawn, and search typed → filtered list drawn (ms). */
export interface OverviewLoad {
  drawnMs: number;
  searchMs: number;
}

/** Returns each fresh page's overview and search times; `word` is what is typed in the search box. */
export async function overviewLoads(url: string, runs: number, word: string): Promise<OverviewLoad[]> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: chromiumFlags,
  });
  try {
    return await loads(browser, url, runs, word);
  } finally {
    await browser.close();
  }
}

async function loads(
  browser: Awaited<ReturnType<typeof chromium.launch>>,
  url: string,
  runs: number,
  word: string,
): Promise<OverviewLoad[]> {
  const out: OverviewLoad[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    await page.goto(`${url}/#/templates`);
    await page.waitForSelector('body[data-route="#/templates"] #templates', { timeout: 300_000 });
    const drawnMs = (await page.evaluate(
      "performance.getEntriesByName('page-drawn-templates')[0].startTime",
    )) as number;
    const typedAt = (await page.evaluate('performance.now()')) as number;
    await page.fill('#search', word);
    await page.waitForSelector(`#templates-page[data-query="${word}"]`, { timeout: 120_000 });
    const redrawn = (await page.evaluate(
      "performance.getEntriesByName('page-drawn-templates').at(-1).startTime",
    )) as number;
    out.push({ drawnMs, searchMs: redrawn - typedAt });
    await context.close();
  }
  return out;
}
