// The renders kept on disk (render-store.ts): a second renderer over the same directory (a
// restarted hub) renders nothing that did not change; a torn file (a hub killed mid-write) is a
// miss, rendered again and rewritten; only the last pass's renders stay in the directory.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { SourceRenderer } from '../../../src/adapters/render-tools/source-renderer.js';
import { directorySourceTree } from '../../../src/adapters/render-tools/source-tree.js';
import { readDirectorySource } from '../../../src/adapters/source/read-directory.js';
import { capsChart, capsSource, clusterDocument, writeFiles } from '../../support/chart-fixtures.js';
import { renderTools } from '../../support/render-tools.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

after(removeTempDirs);
const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;

test(
  'a restarted renderer reads the renders it kept, and renders again what a torn file lost',
  { skip },
  async () => {
    const dir = tempDir('render-store-fleet');
    writeFiles(dir, {
      ...capsChart,
      'sources/caps.yaml': capsSource({
        clusterValues: '- clusterNames: [member2]\n  values: {greeting: hola}',
      }),
      'clusters/member1.yaml': clusterDocument('member1'),
      'clusters/member2.yaml': clusterDocument('member2'),
    });
    const loaded = loadFleet(await readDirectorySource(dir));
    assert.ok(loaded.ok);
    const { clusters, templateSources = [] } = loaded.fleet;
    const store = join(tempDir('render-store'), 'source-renders');
    const fresh = () => {
      const r = new SourceRenderer({ ...('missing' in tools ? {} : { helm: tools.helm }), env: {} });
      r.persistIn(store);
      return r;
    };
    const render = (r: SourceRenderer) =>
      r.renderAll(templateSources, directorySourceTree(dir), { clusters, status: new Map() });
    const first = await render(fresh());
    assert.deepEqual([first.errors, first.runs, first.reused], [[], 2, 0]);
    const kept = readdirSync(store).sort();
    assert.equal(kept.filter((f) => f.startsWith('render-')).length, 2);
    assert.equal(kept.filter((f) => f.startsWith('traits-')).length, 1);

    const restarted = await render(fresh());
    assert.deepEqual([restarted.runs, restarted.reused], [0, 2]);
    assert.deepEqual(restarted.files, first.files);
    assert.deepEqual(restarted.variants, first.variants);

    const torn = kept.find((f) => f.startsWith('render-'))!;
    writeFileSync(join(store, torn), '{"ok":true,"files":[{"pa');
    const afterTear = await render(fresh());
    assert.deepEqual([afterTear.runs, afterTear.reused], [1, 1]);
    assert.deepEqual(afterTear.files, first.files);
    assert.deepEqual(readdirSync(store).sort(), kept, 'rewritten whole, nothing else left');

    writeFiles(dir, { 'sources/caps.yaml': capsSource() });
    const reloaded = loadFleet(await readDirectorySource(dir));
    assert.ok(reloaded.ok);
    const changed = await fresh().renderAll(reloaded.fleet.templateSources ?? [], directorySourceTree(dir), {
      clusters,
      status: new Map(),
    });
    assert.deepEqual(
      [changed.runs, changed.reused],
      [0, 1],
      'without its clusterValues, member2 renders as member1, whose render is kept',
    );
    assert.equal(
      readdirSync(store).filter((f) => f.startsWith('render-')).length,
      1,
      'only the last pass’s renders stay',
    );
  },
);
