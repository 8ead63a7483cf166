// gitfleet diff of a chart version bump says which source changed and from what to what
// (docs/sources.md#provenance): once for the change, and under each cluster whose rendered
// objects it changes; the hub's next pass then names the same chart in its commits.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runCli } from './run-cli.js';
import { renderTools } from '../support/render-tools.js';
import { SourceRenderer } from '../../src/adapters/render-tools/source-renderer.js';
import {
  commitChange,
  fleetRepoWith,
  git,
  hubPass,
  removeFleetRepos,
  rendered,
} from '../loops/hub/hub-fixture.js';

after(removeFleetRepos);
const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;
const toolFlags = 'missing' in tools ? [] : ['--helm', tools.helm, '--kustomize', tools.kustomize];
const example = join(new URL('.', import.meta.url).pathname, '../../../examples/sources-fleet');

test(
  'diff of a chart version bump shows the source change overall and per cluster, as the hub then records it',
  { skip },
  async () => {
    const files = readdirSync(example, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(example, join(e.parentPath ?? e.path, e.name)));
    const repo = fleetRepoWith(
      Object.fromEntries(files.map((f) => [f, readFileSync(join(example, f), 'utf8')])),
      { bare: false },
    );
    const renderer = new SourceRenderer({
      ...('missing' in tools ? {} : { helm: tools.helm, kustomize: tools.kustomize }),
      env: {},
    });
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    const before = git(repo, ['rev-parse', 'main:charts/storefront']);
    commitChange(repo, 'storefront 0.2.0', (work) => {
      const chart = join(work, 'charts/storefront/Chart.yaml');
      writeFileSync(chart, readFileSync(chart, 'utf8').replace('version: 0.1.0', 'version: 0.2.0'));
      const values = join(work, 'charts/storefront/values.yaml');
      writeFileSync(values, readFileSync(values, 'utf8').replace(/^replicas: \d+$/m, 'replicas: 3'));
    });
    const after = git(repo, ['rev-parse', 'main:charts/storefront']);
    const run = await runCli(['diff', repo.path, 'HEAD~1', 'HEAD', ...toolFlags]);
    assert.equal(run.code, 6, run.stderr); // diff: the rendered output changes
    const change = `HelmSource/storefront (sources/storefront.yaml): chart storefront 0.1.0 from charts/storefront ${before}, helm v4.3.2 → chart storefront 0.2.0 from charts/storefront ${after}, helm v4.3.2`;
    const lines = run.stdout.split('\n');
    assert.equal(lines[lines.indexOf('# sources:') + 1], `#   ${change}`, run.stdout);
    // member1 runs the chart's replicas; member2 its own clusterValues, unchanged.
    for (const cluster of ['member1']) {
      const header = lines.findIndex((l) => l.startsWith(`# cluster ${cluster}:`));
      assert.ok(header >= 0, run.stdout);
      assert.equal(lines[header + 1], `#   source: ${change}`);
    }
    assert.ok(!lines.some((l) => l.includes('KustomizeSource/')), 'the unchanged overlay is not named');
    assert.ok(!lines.some((l) => l.startsWith('# cluster member2')), run.stdout);
    const markdown = await runCli([
      'diff',
      repo.path,
      'HEAD~1',
      'HEAD',
      '--format',
      'markdown',
      ...toolFlags,
    ]);
    assert.match(
      markdown.stdout,
      /\*\*Template sources\*\*\n\n- HelmSource\/storefront \(sources\/storefront\.yaml\): chart storefront 0\.1\.0 /,
    );

    // The hub's next pass: the cluster commits the preview announced name the new chart.
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    for (const cluster of ['member1'])
      assert.match(
        git(repo, ['log', '-1', '--format=%B', `gitfleet/clusters/${cluster}`]),
        new RegExp(
          `^Gitfleet-Template-Source: HelmSource/storefront .*chart storefront 0\\.2\\.0 from charts/storefront ${after}, helm v4\\.3\\.2$`,
          'm',
        ),
      );
  },
);
