import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readDirectorySource } from '../../../src/adapters/source/read-directory.js';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet, type RenderResult } from '../../../src/core/render/render-fleet.js';

const example = join(new URL('.', import.meta.url).pathname, '../../../../examples/fleet-repo');

async function loadExample(edit?: (path: string, content: string) => string) {
  const files = (await readDirectorySource(example)).map((f) => ({
    ...f,
    content: edit ? edit(f.path, f.content) : f.content,
  }));
  const loaded = loadFleet(files);
  assert.ok(loaded.ok);
  return loaded.fleet;
}

function filesOf(result: RenderResult) {
  return [...result.clusters].map(([name, out]) => [name, [...out.files], [...out.held]]);
}

test('a render given the memo of the previous one gives exactly the output of a fresh render', async () => {
  const first = renderFleet(freshSnapshot(await loadExample()));
  const changed = await loadExample((path, content) =>
    path === 'apps/shop/web.yaml' ? content.replace('replicas: 10', 'replicas: 12') : content,
  );
  const fresh = renderFleet(freshSnapshot(changed));
  const memoized = renderFleet(freshSnapshot(changed), { memo: first.memo });
  assert.deepEqual(filesOf(memoized), filesOf(fresh));
  assert.notDeepEqual(filesOf(fresh), filesOf(first), 'the change shows in the output');
});

test('only what changed is rendered again: unchanged objects come from the memo', async () => {
  const first = renderFleet(freshSnapshot(await loadExample()));
  const changed = await loadExample((path, content) =>
    path === 'apps/shop/web.yaml' ? content.replace('replicas: 10', 'replicas: 12') : content,
  );
  const second = renderFleet(freshSnapshot(changed), { memo: first.memo });
  const reused = [...second.memo.values()].filter((o) => [...first.memo.values()].includes(o)).length;
  const renderedAgain = second.memo.size - reused;
  assert.ok(reused > 0, 'some objects are reused');
  // web's Deployment differs on its three clusters; nothing else in the file changes its output.
  assert.equal(renderedAgain, 3);
});
