// A restarted hub with its persisted memo (src/loops/hub/hub-memo.ts) writes what a warm hub
// writes: two copies of one fleet repository get the same changes (the same commits, since the
// fixture's dates are fixed), one hub keeps its cache between passes, the other starts every pass
// with a fresh cache, as a hub just restarted, and the memo its last pass left. Equal refs mean
// equal commits, trees and blobs, byte for byte.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import { hubMemoPath } from '../../../src/loops/hub/hub-memo-file.js';
import {
  commitChange,
  exampleFleetRepo,
  hubPass,
  hubRefs,
  removeFleetRepos,
  rendered,
  type FleetRepo,
} from './hub-fixture.js';
import { restartedHubPass, usedLine } from './hub-memo-fixture.js';

after(removeFleetRepos);

/** The changes both repositories get, in this order. */
const changes: { message: string; edit: (work: string) => void }[] = [
  {
    message: 'bump web',
    edit: (work) => replaceIn(join(work, 'apps/shop/web.yaml'), 'shop/web:1.8.0', 'shop/web:1.9.0'),
  },
  {
    message: 'reweigh web',
    edit: (work) => replaceIn(join(work, 'policies/web.yaml'), 'weight: 2', 'weight: 3'),
  },
  {
    message: 'register aws-ap-prod',
    edit: (work) => {
      const text = readFileSync(join(work, 'clusters/aws-us-prod.yaml'), 'utf8');
      writeFileSync(join(work, 'clusters/aws-ap-prod.yaml'), text.replaceAll('aws-us-prod', 'aws-ap-prod'));
    },
  },
  { message: 'drop the widget', edit: (work) => rmSync(join(work, 'apps/shop/widget.yaml')) },
];

function replaceIn(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${file} holds ${from}`);
  writeFileSync(file, text.replace(from, to));
}

test('a hub restarted before every pass writes, with its memo, the same commits as a warm hub', async () => {
  const warm: FleetRepo = exampleFleetRepo({ bare: false });
  const restarted: FleetRepo = exampleFleetRepo({ bare: false });
  const cache = createHubPassCache();
  const first = rendered(await hubPass(warm, { cache, persistMemo: false }));
  rendered((await restartedHubPass(restarted)).result);
  assert.deepEqual(hubRefs(restarted), hubRefs(warm));
  for (const change of changes) {
    commitChange(warm, change.message, change.edit);
    commitChange(restarted, change.message, change.edit);
    const expected = rendered(await hubPass(warm, { cache, persistMemo: false }));
    const { result, lines } = await restartedHubPass(restarted);
    const got = rendered(result);
    assert.deepEqual(hubRefs(restarted), hubRefs(warm), `after "${change.message}"`);
    assert.deepEqual(got.clusters, expected.clusters, `after "${change.message}"`);
    // The memo was used, and the restarted pass hashed what the warm one hashed, besides the
    // binding records it wrote again (the memo keeps no record texts; a pass without the memo
    // hashes every text of every branch).
    assert.deepEqual(lines, [usedLine(restarted)], `after "${change.message}"`);
    const records = got.bindings.type === 'updated' ? got.bindings.records : 0;
    assert.ok(got.written.hashedTexts <= expected.written.hashedTexts + records, `after "${change.message}"`);
    assert.ok(got.written.hashedTexts < first.written.hashedTexts, `after "${change.message}"`);
  }
});

test('the memo lives in the git directory, readable by its owner only', async () => {
  const repo = exampleFleetRepo({ bare: true });
  rendered((await restartedHubPass(repo)).result);
  const { statSync } = await import('node:fs');
  assert.equal(statSync(hubMemoPath(repo.gitdir)).mode & 0o777, 0o600);
  assert.ok(hubMemoPath(repo.gitdir).startsWith(repo.gitdir));
});

test('a memo left by a pass killed after it moved the refs (the one before it) is ignored', async () => {
  const full: FleetRepo = exampleFleetRepo({ bare: false });
  const killed: FleetRepo = exampleFleetRepo({ bare: false });
  rendered(await hubPass(full, { persistMemo: false }));
  rendered((await restartedHubPass(killed)).result);
  const before = `${hubMemoPath(killed.gitdir)}.before`;
  copyFileSync(hubMemoPath(killed.gitdir), before);
  for (const repo of [full, killed]) commitChange(repo, changes[0]!.message, changes[0]!.edit);
  rendered(await hubPass(full, { persistMemo: false }));
  rendered((await restartedHubPass(killed)).result);
  // The kill: the refs of the second pass moved, its memo was never written.
  copyFileSync(before, hubMemoPath(killed.gitdir));
  for (const repo of [full, killed]) commitChange(repo, changes[1]!.message, changes[1]!.edit);
  const expected = rendered(await hubPass(full, { persistMemo: false }));
  const { result, lines } = await restartedHubPass(killed);
  assert.deepEqual(hubRefs(killed), hubRefs(full));
  assert.equal(rendered(result).written.hashedTexts, expected.written.hashedTexts);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /hub-memo-v2: ignored \(written at other refs \(refs\/heads\/gitfleet\/bindings: /);
});
