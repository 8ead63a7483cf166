// Debian's Chromium, driven by playwright-core (Playwright's own browser download does not work
// here). Each launch gets a fresh profile directory, and the flags that keep Chromium from
// calling home: without them it keeps trying to reach the (closed) network.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';

/** Why browser tests are skipped here, or undefined when Chromium is installed. */
export const skipReason = existsSync(chromiumPath)
  ? undefined
  : `${chromiumPath} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does it)`;

/** The flags every launch uses (exported for the benchmark, which launches its own browser). */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A running browser with its own profile; close() removes the profile too. */
export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Starts headless Chromium with a fresh --user-data-dir. */
export async function launchChromium(viewport = { width: 1280, height: 800 }): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'gitfleet-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumFlags,
    viewport,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
