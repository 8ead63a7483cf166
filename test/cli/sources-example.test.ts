// The example fleet with a chart and an overlay (examples/sources-fleet) validates and renders
// as its README says: member2, picked by its `region: eu` label, gets its own values and its
// override; member1 the chart's defaults; both the overlay's Service.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './run-cli.js';
import { renderTools } from '../support/render-tools.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeTempDirs);
const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;
const toolFlags = 'missing' in tools ? [] : ['--helm', tools.helm, '--kustomize', tools.kustomize];
const example = join(new URL('.', import.meta.url).pathname, '../../../examples/sources-fleet');

test(
  'examples/sources-fleet validates and renders member2 with its own values and override',
  { skip },
  async () => {
    const validate = await runCli(['validate', example, ...toolFlags]);
    assert.equal(validate.code, 0, validate.stderr);
    const out = tempDir('sources-example');
    const run = await runCli(['render', example, '--out', out, ...toolFlags]);
    assert.equal(run.code, 0, run.stderr);
    const file = (cluster: string, path: string) =>
      readFileSync(join(out, cluster, 'storefront', path), 'utf8');
    assert.match(file('member1', 'ConfigMap/storefront-settings.yaml'), /GREETING: hello/);
    assert.match(file('member2', 'ConfigMap/storefront-settings.yaml'), /GREETING: bonjour/);
    assert.match(file('member1', 'Deployment.apps/storefront.yaml'), /replicas: 1\n/);
    assert.match(file('member2', 'Deployment.apps/storefront.yaml'), /replicas: 2\n/);
    assert.match(file('member2', 'Deployment.apps/storefront.yaml'), /served-from: eu/);
    assert.doesNotMatch(file('member1', 'Deployment.apps/storefront.yaml'), /served-from/);
    for (const cluster of ['member1', 'member2'])
      assert.match(file(cluster, 'Service/storefront-web.yaml'), /tier: prod/);
  },
);

test('without the tools, validate of examples/sources-fleet fails naming the source, and the quick start’s fleet needs none', async () => {
  const validate = await runCli([
    'validate',
    example,
    '--helm',
    '/nonexistent/helm',
    '--kustomize',
    '/nonexistent/kustomize',
  ]);
  assert.notEqual(validate.code, 0);
  assert.match(validate.stderr + validate.stdout, /sources\/prod-service\.yaml|sources\/storefront\.yaml/);
  const quickStart = await runCli([
    'validate',
    join(example, '../fleet-repo'),
    '--helm',
    '/nonexistent/helm',
  ]);
  assert.equal(quickStart.code, 0, quickStart.stderr);
});
