// The walkthrough's promise about the dashboard, checked as a reader checks it: the address
// `gitfleet ui` printed, opened in Chromium, shows the clusters and the template.
import { launchChromium, skipReason } from '../browser/launch-chromium.js';

/**
 * Opens the URL `gitfleet ui` printed in `output` (at `hash`, a page of the dashboard, when
 * given) and waits until the page shows every word; skipped without Chromium.
 */
export async function checkDashboardPage(output: string, words: readonly string[], hash = ''): Promise<void> {
  const printed = /serving .* at (http:\/\/\S+\/)/.exec(output)?.[1];
  if (!printed) throw new Error(`gitfleet ui printed no address:\n${output}`);
  const url = `${printed}${hash}`;
  if (skipReason) {
    console.log(`# dashboard page not opened: ${skipReason}`);
    return;
  }
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.goto(url);
    await page
      .waitForFunction(
        (wanted: readonly string[]) => {
          const doc = (globalThis as unknown as { document: { body: { innerText: string } } }).document;
          return wanted.every((w) => doc.body.innerText.includes(w));
        },
        words,
        { timeout: 60_000 },
      )
      .catch(async () => {
        const text = String(await page.evaluate('document.body.innerText'));
        throw new Error(`the dashboard at ${url} does not show ${words.join(', ')}; it shows:\n${text}`);
      });
  } finally {
    await browser.close();
  }
}
