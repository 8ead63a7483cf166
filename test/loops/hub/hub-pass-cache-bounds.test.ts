import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClusterOutput } from '../../../src/core/render/cluster-output.js';
import { createHubPassCache, type HubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import { commitChange, exampleFleetRepo, hubPass, removeFleetRepos, rendered } from './hub-fixture.js';

after(removeFleetRepos);

/** Every cluster output the cache keeps for the next pass. */
function keptOutputs(cache: HubPassCache): ClusterOutput[] {
  return [
    ...[...cache.branches.values()].map((b) => b.output),
    ...[...(cache.renderMemo?.clusters.values() ?? [])].map((c) => c.output),
  ];
}

/** The longest chain of `derived.from` links from a kept output. */
function longestDerivation(cache: HubPassCache): number {
  let longest = 0;
  for (const output of keptOutputs(cache)) {
    let n = 0;
    for (let o: ClusterOutput | undefined = output; o?.derived; o = o.derived.from) n++;
    longest = Math.max(longest, n);
  }
  return longest;
}

test("A running hub's pass cache keeps one step of derivation per output, not every pass's output before it.", async () => {
  const repo = exampleFleetRepo({ bare: false });
  const cache = createHubPassCache();
  rendered(await hubPass(repo, { cache }));
  const web = join('apps', 'shop', 'web.yaml');
  for (let n = 0; n < 6; n++) {
    commitChange(repo, `web ${n}`, (work) => {
      const text = readFileSync(join(work, web), 'utf8');
      writeFileSync(join(work, web), text.replace(/shop\/web:[0-9.]+/, `shop/web:2.0.${n}`));
    });
    rendered(await hubPass(repo, { cache }));
    // One step: the next pass still plans the changed paths only; none further back.
    assert.equal(longestDerivation(cache), 1, `after change ${n}`);
  }
});
