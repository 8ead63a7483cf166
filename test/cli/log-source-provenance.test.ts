// gitfleet log names the template source each object came from (docs/sources.md#provenance): the
// explanation's `from:` line reads the bindings record's spec.templateSource, and each entry of
// the history says, in a `why:` line, the chart version the render commit came from. Branches
// written by real hub passes with the real helm.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceRenderer } from '../../src/adapters/render-tools/source-renderer.js';
import {
  commitChange,
  fleetRepoWith,
  git,
  hubPass,
  removeFleetRepos,
  rendered,
} from '../loops/hub/hub-fixture.js';
import { helmSource, webChart, eastFleet } from '../support/chart-fixtures.js';
import { renderTools } from '../support/render-tools.js';
import { runCli } from './run-cli.js';

after(removeFleetRepos);
const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;

const fleet = {
  ...webChart,
  'sources/web.yaml': helmSource(),
  ...eastFleet(),
};

test(
  'log of an object a chart rendered names the chart, version and digest now and at each change',
  { skip },
  async () => {
    const repo = fleetRepoWith(fleet, { bare: false });
    const renderer = new SourceRenderer({ helm: 'missing' in tools ? '' : tools.helm, env: {} });
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    const first = git(repo, ['rev-parse', 'main:charts/web']);
    commitChange(repo, 'web chart 0.2.0: nginx 1.28', (work) => {
      writeFileSync(join(work, 'charts/web/Chart.yaml'), 'apiVersion: v2\nname: web\nversion: 0.2.0\n');
      writeFileSync(
        join(work, 'charts/web/values.yaml'),
        'replicas: 2\nimage: nginx\ntag: "1.28"\nconfig:\n  enabled: false\n  greeting: hello\n',
      );
    });
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    const second = git(repo, ['rev-parse', 'main:charts/web']);

    const out = await runCli(['log', '--repo', repo.path, 'deploy/shop/web']);
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout.split('\n');
    assert.match(lines[0]!, /^now: Deployment\/shop\/web /);
    assert.equal(
      lines[1],
      `  from: HelmSource/web (sources/web.yaml): chart web 0.2.0 from charts/web ${second}, helm v4.3.2`,
    );
    const why = lines.filter((l) => l.includes('why: Gitfleet-Template-Source:'));
    assert.deepEqual(
      why.map((l) => l.trim()),
      [
        `why: Gitfleet-Template-Source: HelmSource/web (sources/web.yaml): chart web 0.2.0 from charts/web ${second}, helm v4.3.2`,
        `why: Gitfleet-Template-Source: HelmSource/web (sources/web.yaml): chart web 0.1.0 from charts/web ${first}, helm v4.3.2`,
      ],
      out.stdout,
    );
  },
);
