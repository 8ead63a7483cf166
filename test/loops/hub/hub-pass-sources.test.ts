// The hub renders a fleet's template sources as part of its pass: the chart's objects land on
// the cluster branches; a chart that stops rendering fails the pass with the source's error and
// leaves every branch on its last good render; a pass whose sources did not change runs no tool.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceRenderer, type SourcesRendered } from '../../../src/adapters/render-tools/source-renderer.js';
import {
  branchFiles,
  commitChange,
  fleetRepoWith,
  hubPass,
  hubRefs,
  removeFleetRepos,
  rendered,
} from './hub-fixture.js';
import { helmSource, webChart, eastFleet } from '../../support/chart-fixtures.js';
import { renderTools } from '../../support/render-tools.js';

after(removeFleetRepos);
const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;

const fleet = {
  ...webChart,
  'sources/web.yaml': helmSource({ values: 'replicas: 3' }),
  ...eastFleet({ services: true }),
};

// The real renderer, with what each pass asked of it kept.
function countingRenderer() {
  const inner = new SourceRenderer({ ...('missing' in tools ? {} : { helm: tools.helm }), env: {} });
  const calls: SourcesRendered[] = [];
  return {
    calls,
    renderer: {
      async renderAll(...args: Parameters<SourceRenderer['renderAll']>) {
        const out = await inner.renderAll(...args);
        calls.push(out);
        return out;
      },
    },
  };
}

test(
  'the hub renders a chart onto the cluster branch, reruns no tool when the chart did not change, and keeps the last good render when it fails',
  { skip },
  async () => {
    const repo = fleetRepoWith(fleet, { bare: true });
    const { calls, renderer } = countingRenderer();
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    const east = branchFiles(repo, 'gitfleet/clusters/east');
    assert.match(east.get('shop/Deployment.apps/web.yaml') ?? '', /replicas: 3\n/);
    assert.ok(east.has('shop/Service/web.yaml'));

    commitChange(repo, 'a committed ConfigMap', (work) =>
      writeFileSync(
        join(work, 'policies/note.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: note\n  namespace: shop\n',
      ),
    );
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    assert.deepEqual(
      calls.map((c) => [c.runs, c.reused]),
      [
        [1, 0],
        [0, 1],
      ],
      'the unchanged chart was not rendered again',
    );

    const refs = hubRefs(repo);
    commitChange(repo, 'break the chart', (work) =>
      writeFileSync(
        join(work, 'charts/web/templates/service.yaml'),
        'kind: Service\nmetadata:\n  name: {{ .Values.no.such }}\n',
      ),
    );
    const failed = await hubPass(repo, { sourceRenderer: renderer });
    assert.equal(failed.type, 'loadFailed');
    const [error] = failed.type === 'loadFailed' ? failed.errors : [];
    assert.equal(error?.file, 'sources/web.yaml');
    assert.match(
      error?.message ?? '',
      /^HelmSource\/web: chart charts\/web: helm v4\.3\.2 failed: .*web\/templates\/service\.yaml:3:/,
    );
    assert.deepEqual(hubRefs(repo), refs, 'every branch keeps its last good render');
  },
);

test('a hub without a renderer fails a fleet with a source, naming it, and writes nothing', async () => {
  const repo = fleetRepoWith(fleet, { bare: false });
  const result = await hubPass(repo);
  assert.equal(result.type, 'loadFailed');
  assert.match(
    result.type === 'loadFailed' ? result.errors[0]!.message : '',
    /^HelmSource\/web: this command does not render template sources$/,
  );
  assert.deepEqual(hubRefs(repo), new Map());
});
