// A chart's name and version for its provenance (docs/sources.md#provenance), from Chart.yaml
// text and from a packaged chart: what is missing or unreadable is absent, never an exception.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { packagedChartMetadata, parseChartYaml } from '../../../src/adapters/render-tools/chart-metadata.js';

const cases: { name: string; given: string | undefined; want: ReturnType<typeof parseChartYaml> }[] = [
  {
    name: 'a name and version are read',
    given: 'apiVersion: v2\nname: web\nversion: 1.4.2\n',
    want: { name: 'web', version: '1.4.2' },
  },
  {
    name: 'a version that YAML would read as a number stays as written',
    given: 'name: web\nversion: 1.10\n',
    want: { name: 'web', version: '1.10' },
  },
  {
    name: 'a Chart.yaml without a version gives none',
    given: 'apiVersion: v2\nname: web\n',
    want: { name: 'web' },
  },
  { name: 'no Chart.yaml gives nothing', given: undefined, want: {} },
  { name: 'a Chart.yaml that is not YAML gives nothing', given: 'name: [web\n', want: {} },
  { name: 'a Chart.yaml that is a list gives nothing', given: '- web\n', want: {} },
];
for (const c of cases) test(c.name, () => assert.deepEqual(parseChartYaml(c.given), c.want));

// A one-file ustar archive, as helm packages a chart's files under `<chart>/`.
function tarOf(name: string, text: string): Buffer {
  const body = Buffer.from(text);
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write('0000644\0', 100);
  header.write(body.length.toString(8).padStart(11, '0') + '\0', 124);
  header.write('0', 156);
  header.write('ustar\0', 257);
  const padded = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  body.copy(padded);
  return Buffer.concat([header, padded, Buffer.alloc(1024)]);
}

test('a packaged chart gives its top folder Chart.yaml; garbage gives nothing', () => {
  const tgz = gzipSync(tarOf('web/Chart.yaml', 'apiVersion: v2\nname: web\nversion: 0.3.0\n'));
  assert.deepEqual(packagedChartMetadata(tgz), { name: 'web', version: '0.3.0' });
  const sub = gzipSync(tarOf('web/charts/sub/Chart.yaml', 'name: sub\nversion: 9.9.9\n'));
  assert.deepEqual(packagedChartMetadata(sub), {}, "a subchart's Chart.yaml is not the chart's");
  assert.deepEqual(packagedChartMetadata(Buffer.from('not a chart')), {});
  assert.deepEqual(packagedChartMetadata(gzipSync(Buffer.from('truncated'))), {});
});
