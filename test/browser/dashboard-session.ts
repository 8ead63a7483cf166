// One dashboard as a browser test drives it: `gitfleet ui` as a process on a repository, Debian's
// Chromium at a laptop's screen size, a tab, and the helpers every page test uses: open a route
// and wait until it is drawn, read an API document, write a screenshot under test-output/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../loops/hub/hub-fixture.js';
import { launchChromium, type Browser } from './launch-chromium.js';
import { startUi, type UiProcess } from './ui-process.js';

/** The two laptop screens the pages are looked at on. */
export const laptop = { width: 1366, height: 768 };
export const desktop = { width: 1920, height: 1080 };

/** A running dashboard and a tab on it. */
export interface DashboardSession {
  ui: UiProcess;
  browser: Browser;
  page: Page;
  /** Goes to a route (`#/templates`) and resolves once it is drawn and `ready` is on the page. */
  open(hash: string, ready: string): Promise<void>;
  /** Returns an API document (`templates`, `cluster?name=…`) as the page reads it. */
  api<T = unknown>(path: string): Promise<T>;
  /** Writes a screenshot of the tab (the whole page with `full`) to test-output/<folder>/<name>.png. */
  shoot(name: string, full?: boolean): Promise<string>;
  /** The folder the screenshots go to. */
  shots: string;
  close(): Promise<number | null>;
}

/** Starts `gitfleet ui` on the repository and Chromium at a screen size; screenshots go to test-output/<folder>. */
export async function openDashboard(
  repo: string,
  folder: string,
  viewport: { width: number; height: number } = laptop,
): Promise<DashboardSession> {
  const shots = join(repoRoot, 'test-output', folder);
  mkdirSync(shots, { recursive: true });
  const ui = await startUi(repo);
  const browser = await launchChromium(viewport);
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return {
    ui,
    browser,
    page,
    open: async (hash, ready) => {
      await page.goto(`${ui.url}/${hash}`);
      await page.waitForSelector(`body[data-route="${hash}"] ${ready}`);
      if (errors.length > 0) throw new Error(`the page threw: ${errors.join('; ')}`);
    },
    api: async <T>(path: string) => (await (await page.request.get(`${ui.url}/api/${path}`)).json()) as T,
    shots,
    shoot: async (name, full = false) => {
      const path = join(shots, `${name}.png`);
      await page.screenshot({ path, fullPage: full });
      return path;
    },
    close: async () => {
      await browser.close();
      return ui.stop();
    },
  };
}

/**
 * Asserts that the page shown reads on its screen: nothing wider than the window (a long line
 * wraps or scrolls in its own box) and every date on one line with its RFC 3339 time on hover.
 */
export async function assertReadable(page: Page, what: string): Promise<void> {
  const layout = (await page.evaluate(`({
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    times: [...document.querySelectorAll('time')].map((t) => ({
      title: t.getAttribute('title') ?? '',
      lines: t.getClientRects().length,
      height: t.getBoundingClientRect().height,
    })),
  })`)) as { overflow: number; times: { title: string; lines: number; height: number }[] };
  assert.ok(layout.overflow <= 0, `${what}: ${layout.overflow}px wider than the window`);
  for (const t of layout.times) {
    assert.match(t.title, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, `${what}: a date's hover text is RFC 3339`);
    assert.ok(t.lines === 1 && t.height < 24, `${what}: a date on ${t.lines} lines (${t.height}px)`);
  }
}

/**
 * Opens every page (route and the selector that says it is drawn) at 1366×768 then 1920×1080,
 * asserts it reads (assertReadable) and writes its screenshot as `<page>-<size>.png`.
 */
export async function assertEveryPageReads(s: DashboardSession, pages: [string, string][]): Promise<void> {
  for (const [size, viewport] of [
    ['1366x768', laptop],
    ['1920x1080', desktop],
  ] as const) {
    await s.page.setViewportSize(viewport);
    for (const [hash, ready] of pages) {
      await s.open(hash, ready);
      await assertReadable(s.page, `${hash} at ${size}`);
      await s.shoot(`${hash.split('/')[1]}-${size}`);
    }
  }
  await s.page.setViewportSize(laptop);
}

/** Returns the text of every element a selector finds, in order. */
export async function textsOf(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
}
