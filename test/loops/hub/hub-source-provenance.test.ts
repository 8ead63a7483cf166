// The hub records where each template a source rendered came from (docs/sources.md#provenance):
// the bindings record's spec.templateSource names the source, the chart's name, version and
// digest (the chart directory's git tree id) or the kustomization's path and tree id, and the
// tool's version; the commits that change a source's records or objects carry a
// Gitfleet-Template-Source trailer. A chart version bump and a new helm version alone are
// visible changes of the records, never silent ones.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { SourceRenderer } from '../../../src/adapters/render-tools/source-renderer.js';
import type { RenderToolName } from '../../../src/adapters/render-tools/find-render-tool.js';
import {
  branchFiles,
  commitChange,
  fleetRepoWith,
  git,
  hubPass,
  hubRefs,
  removeFleetRepos,
  rendered,
} from './hub-fixture.js';
import { helmSource, overlay, webChart, eastFleet } from '../../support/chart-fixtures.js';
import { renderTools } from '../../support/render-tools.js';

after(removeFleetRepos);
const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;

const fleet = {
  ...webChart,
  ...overlay,
  'sources/web.yaml': helmSource({ values: 'replicas: 3' }),
  ...eastFleet({ services: true }),
};

// A renderer whose helm says another version: the same binary, so only the version string differs.
class RenamedHelm extends SourceRenderer {
  override async tool(name: RenderToolName) {
    const found = await super.tool(name);
    return 'missing' in found || name !== 'helm' ? found : { ...found, version: 'v4.3.3-test' };
  }
}

function templateSource(repo: ReturnType<typeof fleetRepoWith>, path: string): Record<string, unknown> {
  const record = yaml.load(branchFiles(repo, 'gitfleet/bindings').get(path) ?? '') as {
    spec: { templateSource?: Record<string, unknown> };
  };
  return record.spec.templateSource ?? {};
}

function message(repo: ReturnType<typeof fleetRepoWith>, ref: string): string {
  return git(repo, ['log', '-1', '--format=%B', ref]);
}

test(
  'the bindings records and the render commits name each template source, and a chart bump or a new helm version changes them',
  { skip },
  async () => {
    const repo = fleetRepoWith(fleet, { bare: true });
    const helm = 'missing' in tools ? '' : tools.helm;
    const kustomize = 'missing' in tools ? '' : tools.kustomize;
    const renderer = new SourceRenderer({ helm, kustomize, env: {} });
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    const chartTree = git(repo, ['rev-parse', 'main:charts/web']);
    const prodTree = git(repo, ['rev-parse', 'main:kustomize/prod']);
    assert.deepEqual(templateSource(repo, 'shop/Deployment.apps/web.yaml'), {
      kind: 'HelmSource',
      name: 'web',
      file: 'sources/web.yaml',
      renderedFile: 'sources/web.yaml@web/templates/deployment.yaml',
      chart: { ref: 'charts/web', name: 'web', version: '0.1.0', digest: chartTree },
      tool: 'helm v4.3.2',
    });
    assert.deepEqual(templateSource(repo, 'shop/Deployment.apps/prod-api.yaml'), {
      kind: 'KustomizeSource',
      name: 'api',
      file: 'sources/api.yaml',
      renderedFile: 'sources/api.yaml@kustomize/prod/kustomize.yaml',
      kustomization: { path: 'kustomize/prod', digest: prodTree },
      tool: 'kustomize v5.8.2',
    });
    const helmLine = `Gitfleet-Template-Source: HelmSource/web (sources/web.yaml): chart web 0.1.0 from charts/web ${chartTree}, helm v4.3.2`;
    const kustomizeLine = `Gitfleet-Template-Source: KustomizeSource/api (sources/api.yaml): kustomization kustomize/prod ${prodTree}, kustomize v5.8.2`;
    for (const ref of ['gitfleet/bindings', 'gitfleet/clusters/east']) {
      const lines = message(repo, ref).split('\n');
      assert.ok(lines.includes(helmLine), `${ref} names the chart:\n${lines.join('\n')}`);
      assert.ok(lines.includes(kustomizeLine), `${ref} names the kustomization`);
    }

    // A chart version bump: the records say the new version and digest; the manifests are the same.
    const east = hubRefs(repo).get('refs/heads/gitfleet/clusters/east');
    commitChange(repo, 'web chart 0.2.0', (work) =>
      writeFileSync(join(work, 'charts/web/Chart.yaml'), 'apiVersion: v2\nname: web\nversion: 0.2.0\n'),
    );
    rendered(await hubPass(repo, { sourceRenderer: renderer }));
    const bumped = git(repo, ['rev-parse', 'main:charts/web']);
    assert.deepEqual(templateSource(repo, 'shop/Deployment.apps/web.yaml').chart, {
      ref: 'charts/web',
      name: 'web',
      version: '0.2.0',
      digest: bumped,
    });
    const bindings = message(repo, 'gitfleet/bindings').split('\n');
    assert.ok(
      bindings.some(
        (l) =>
          l.startsWith('Gitfleet-Template-Source: HelmSource/web') &&
          l.includes(`chart web 0.2.0 from charts/web ${bumped}`),
      ),
    );
    assert.ok(!bindings.some((l) => l.includes('KustomizeSource/api')), 'the unchanged source is not named');
    assert.equal(
      hubRefs(repo).get('refs/heads/gitfleet/clusters/east'),
      east,
      'the same manifests: no cluster commit',
    );

    // Only helm's version differs (the next source commit touches no source): the records
    // change, and the commit says so.
    commitChange(repo, 'a committed ConfigMap', (work) =>
      writeFileSync(
        join(work, 'policies/note.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: note\n  namespace: shop\n',
      ),
    );
    rendered(await hubPass(repo, { sourceRenderer: new RenamedHelm({ helm, kustomize, env: {} }) }));
    assert.equal(templateSource(repo, 'shop/Service/web.yaml').tool, 'helm v4.3.3-test');
    assert.match(
      message(repo, 'gitfleet/bindings'),
      /^Gitfleet-Template-Source: HelmSource\/web .*, helm v4\.3\.3-test$/m,
    );
    assert.equal(hubRefs(repo).get('refs/heads/gitfleet/clusters/east'), east);
  },
);
