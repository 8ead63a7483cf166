// The chart scan on a subchart packaged inside a packaged chart (top.tgz holding
// charts/sub-0.1.0.tgz), which helm renders as it renders any chart: it is read as the top chart
// is, so its `.Capabilities` makes the render per cluster and its randAlphaNum a render error.
// `helm package` writes subcharts unpacked; such an archive is a chart directory after `helm
// dependency build` (its charts/*.tgz) packed with tar, as CI scripts and some registries do.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { scanChart } from '../../../src/adapters/render-tools/scan-chart.js';
import { SourceRenderer } from '../../../src/adapters/render-tools/source-renderer.js';
import { directorySourceTree } from '../../../src/adapters/render-tools/source-tree.js';
import { readDirectorySource } from '../../../src/adapters/source/read-directory.js';
import { writeFiles } from '../../support/chart-fixtures.js';
import { renderTools } from '../../support/render-tools.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

after(removeTempDirs);
const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;
const helm = 'missing' in tools ? '' : tools.helm;

// A subchart whose Secret takes a random password and whose ConfigMap says the kube version.
const subChart: Record<string, string> = {
  'sub/Chart.yaml': 'apiVersion: v2\nname: sub\nversion: 0.1.0\n',
  'sub/templates/secret.yaml':
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: sub-password\nstringData:\n  password: {{ randAlphaNum 16 | quote }}\n',
  'sub/templates/configmap.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sub-kube\ndata:\n  kube: {{ .Capabilities.KubeVersion.Version | quote }}\n',
};
const topChart: Record<string, string> = {
  'top/Chart.yaml': 'apiVersion: v2\nname: top\nversion: 0.1.0\n',
  'top/templates/configmap.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: top\ndata: {a: b}\n',
};

// Packages sub with helm into top/charts/, then packs top with tar: returns the archive's path.
function nestedPackage(dir: string): string {
  writeFiles(dir, { ...subChart, ...topChart });
  const env = { HOME: dir };
  execFileSync(helm, ['package', 'sub', '--destination', 'top/charts'], { cwd: dir, env, stdio: 'ignore' });
  execFileSync('mkdir', ['-p', join(dir, 'out')]);
  execFileSync('tar', ['-czf', 'out/top-0.1.0.tgz', 'top'], { cwd: dir });
  return join(dir, 'out', 'top-0.1.0.tgz');
}

test('a subchart packaged inside a packaged chart is scanned as the top chart is', { skip }, async () => {
  const traits = await scanChart(nestedPackage(tempDir('nested')));
  assert.deepEqual(traits, { readsCapabilities: true, nondeterministic: ['randAlphaNum'] });
  const top = tempDir('top-only');
  writeFiles(top, topChart);
  execFileSync(helm, ['package', 'top', '--destination', 'out'], {
    cwd: top,
    env: { HOME: top },
    stdio: 'ignore',
  });
  assert.deepEqual(await scanChart(join(top, 'out', 'top-0.1.0.tgz')), {
    readsCapabilities: false,
    nondeterministic: [],
  });
});

test(
  "a nested subchart's random value makes its HelmSource a render error naming the object and the function",
  { skip },
  async () => {
    const dir = tempDir('nested-fleet');
    const packaged = nestedPackage(join(dir, 'build'));
    execFileSync('cp', [packaged, join(dir, 'top-0.1.0.tgz')]);
    execFileSync('rm', ['-rf', join(dir, 'build')]);
    writeFiles(dir, {
      'sources/top.yaml': [
        'apiVersion: gitfleet.io/v1alpha1',
        'kind: HelmSource',
        'metadata: {name: top}',
        'spec:',
        '  chart: {path: top-0.1.0.tgz}',
        '  releaseName: top',
        '  namespace: shop',
        '',
      ].join('\n'),
    });
    const loaded = loadFleet(await readDirectorySource(dir));
    assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
    const out = await new SourceRenderer({ helm, env: {} }).renderAll(
      loaded.fleet.templateSources ?? [],
      directorySourceTree(dir),
    );
    assert.equal(out.runs, 2);
    assert.deepEqual(out.files, []);
    assert.match(
      out.errors[0]?.message ?? '',
      /^HelmSource\/top: chart top-0\.1\.0\.tgz: Secret\/sub-password \(top\/charts\/sub\/templates\/secret\.yaml\) differs between two renders of the same inputs: the chart calls randAlphaNum/,
    );
  },
);
