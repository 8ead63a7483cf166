// The write phase's publishing to render repositories (loops/hub/write-hub-pass.ts): a source
// push moves branches in every render repository, and their pushes go side by side (a bounded
// few at a time), not one round trip after another; a repository that refuses is still named
// with the others once every push settled, and the tombstones wait for the branches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { moveRefsOfPass, renderPublishConcurrency } from '../../../src/loops/hub/write-hub-pass.js';
import { RenderUnavailableError } from '../../../src/loops/hub/render-repositories.js';
import type { HubRepo } from '../../../src/adapters/remote/hub-repo.js';
import type { RefMove } from '../../../src/core/model/ref-move.js';

const repo = { gitdir: '/nowhere', description: 'fleet' } as unknown as HubRepo;
const oid = (k: number) => String(k).padStart(40, '0');
const urls = Array.from(
  { length: 40 },
  (_, k) => `https://forge.example/render-${String(k).padStart(2, '0')}.git`,
);
const moves: RefMove[] = urls.map((url, k) => ({
  ref: `refs/heads/gitfleet/clusters/c${k}`,
  oldOid: null,
  newOid: oid(k + 1),
  repository: url,
}));

/** A publisher whose pushes take a few turns of the event loop, counting how many are in flight. */
function publisher(refuse: ReadonlySet<string> = new Set()) {
  let inFlight = 0;
  const seen = { most: 0, published: [] as string[] };
  return {
    seen,
    publish: async (url: string) => {
      inFlight++;
      seen.most = Math.max(seen.most, inFlight);
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      if (refuse.has(url)) throw new RenderUnavailableError(new Map([[url, `${url} refused the write`]]));
      seen.published.push(url);
    },
  };
}

test('the pushes of a pass to many render repositories go side by side, at most a bounded few at once', async () => {
  const render = publisher();
  await moveRefsOfPass({ repo, objects: [], moves, known: new Set(), render });
  assert.deepEqual([...render.seen.published].sort(), urls, 'every repository published once');
  assert.equal(render.seen.most, renderPublishConcurrency, 'side by side, within the bound');
});

test('a repository that refuses is named once every other push settled', async () => {
  const render = publisher(new Set([urls[3]!, urls[11]!]));
  await assert.rejects(
    moveRefsOfPass({ repo, objects: [], moves, known: new Set(), render }),
    (error: unknown) =>
      error instanceof RenderUnavailableError &&
      [...error.refused.keys()].join(' ') === `${urls[3]} ${urls[11]}`,
  );
  assert.equal(render.seen.published.length, urls.length - 2, 'the others are published');
});
