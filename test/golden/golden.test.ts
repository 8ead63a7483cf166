// Golden scenarios: each folder under test/golden/scenarios/ holds a small fleet repo (fleet/)
// and the expected per-cluster tree (expected/<cluster>/...), plus the expected diagnostics
// (expected/diagnostics.txt). One scenario per rule. GITFLEET_UPDATE_GOLDEN=1 rewrites the
// expected trees; review the diff before committing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readDirectorySource } from '../../src/adapters/source/read-directory.js';
import { formatLoadError, loadFleet } from '../../src/core/load/load-fleet.js';
import { formatDiagnostic } from '../../src/core/model/diagnostic.js';
import { freshSnapshot } from '../../src/core/model/snapshot.js';
import { renderFleet } from '../../src/core/render/render-fleet.js';

const root = join(dirname(new URL(import.meta.url).pathname), '../../../test/golden/scenarios');
const update = process.env.GITFLEET_UPDATE_GOLDEN === '1';

async function renderScenario(dir: string): Promise<Map<string, string>> {
  const loaded = loadFleet(await readDirectorySource(join(dir, 'fleet')));
  if (!loaded.ok) return new Map([['load-errors.txt', loaded.errors.map(formatLoadError).join('\n') + '\n']]);
  const result = renderFleet(freshSnapshot(loaded.fleet));
  const tree = new Map<string, string>();
  for (const [cluster, out] of result.clusters) {
    for (const [path, text] of out.files) tree.set(`${cluster}/${path}`, text);
  }
  tree.set('diagnostics.txt', result.diagnostics.map(formatDiagnostic).join('\n') + '\n');
  return tree;
}

async function readTree(dir: string, prefix = ''): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  if (!existsSync(join(dir, prefix))) return tree;
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [k, v] of await readTree(dir, rel)) tree.set(k, v);
    else tree.set(rel, await readFile(join(dir, rel), 'utf8'));
  }
  return tree;
}

for (const scenario of existsSync(root) ? readdirSync(root).sort() : []) {
  test(`golden scenario ${scenario} renders exactly its expected tree`, async () => {
    const dir = join(root, scenario);
    const actual = await renderScenario(dir);
    const expectedDir = join(dir, 'expected');
    if (update) {
      await rm(expectedDir, { recursive: true, force: true });
      for (const [path, text] of actual) {
        await mkdir(dirname(join(expectedDir, path)), { recursive: true });
        await writeFile(join(expectedDir, path), text);
      }
    }
    const expected = await readTree(expectedDir);
    assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), 'the same files are rendered');
    for (const [path, text] of expected) assert.equal(actual.get(path), text, `${scenario}/expected/${path}`);
  });
}
