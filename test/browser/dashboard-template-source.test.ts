// The dashboard's template page names the template source an object came from
// (docs/sources.md#provenance): the chart, its version and digest and the helm version, from the
// bindings record a real hub pass wrote with the real helm, in headless Chromium.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { SourceRenderer } from '../../src/adapters/render-tools/source-renderer.js';
import { fleetRepoWith, git, hubPass, removeFleetRepos, rendered } from '../loops/hub/hub-fixture.js';
import { helmSource, webChart, eastFleet } from '../support/chart-fixtures.js';
import { renderTools } from '../support/render-tools.js';
import { launchChromium, skipReason } from './launch-chromium.js';
import { startUi } from './ui-process.js';

after(removeFleetRepos);
const tools = renderTools();
const skip = skipReason ?? ('missing' in tools ? tools.missing : false);

const fleet = {
  ...webChart,
  'sources/web.yaml': helmSource(),
  ...eastFleet(),
};

test(
  'the template page shows the chart, version, digest and helm version an object came from',
  { skip },
  async () => {
    const repo = fleetRepoWith(fleet, { bare: false });
    const renderer = new SourceRenderer({ helm: 'missing' in tools ? '' : tools.helm, env: {} });
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    const tree = git(repo, ['rev-parse', 'main:charts/web']);
    const ui = await startUi(repo.path);
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      const hash = `#/template/${encodeURIComponent('apps/Deployment/shop/web')}`;
      await page.goto(`${ui.url}/${hash}`);
      await page.waitForSelector(`body[data-route="${hash}"] #template-page`);
      assert.equal(
        await page.textContent('#template-source-file'),
        'sources/web.yaml@web/templates/deployment.yaml',
      );
      assert.equal(
        await page.textContent('#template-source'),
        `HelmSource/web (sources/web.yaml): chart web 0.1.0 from charts/web ${tree}, helm v4.3.2` +
          'sources/web.yaml@web/templates/deployment.yaml',
      );
    } finally {
      await browser.close();
      assert.equal(await ui.stop(), 0);
    }
  },
);
