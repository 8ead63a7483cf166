// A memo that does not match is ignored with one log line, and the pass writes what a full pass
// writes (src/loops/hub/hub-memo-file.ts): two copies of one fleet repository get the same
// commits; one hub never keeps a memo, the other restarts with a memo damaged or stale.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeGraph } from '../../../src/loops/hub/graph-encode.js';
import { hubMemoPath } from '../../../src/loops/hub/hub-memo-file.js';
import {
  commitChange,
  exampleFleetRepo,
  git,
  hubPass,
  hubRefs,
  removeFleetRepos,
  rendered,
  type FleetRepo,
} from './hub-fixture.js';
import { restartedHubPass, rewriteMemo, usedLine } from './hub-memo-fixture.js';

after(removeFleetRepos);

const bumpWeb = (work: string) => {
  const file = join(work, 'apps/shop/web.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('shop/web:1.8.0', 'shop/web:1.9.0'));
};

/** Moves a cluster branch to a commit of its own tree, as someone else might. */
function moveClusterBranch(repo: FleetRepo): void {
  const ref = 'refs/heads/gitfleet/clusters/onprem-gpu';
  git(repo, ['update-ref', ref, git(repo, ['commit-tree', `${ref}^{tree}`, '-p', ref, '-m', 'by hand'])]);
}

const cases: {
  name: string;
  /** What happens to both repositories after the first pass (besides the source change). */
  both?: (repo: FleetRepo) => void;
  damage: (repo: FleetRepo) => void;
  reason: RegExp;
}[] = [
  {
    name: 'a truncated memo',
    damage: (repo) =>
      truncateSync(hubMemoPath(repo.gitdir), Math.floor(statSync(hubMemoPath(repo.gitdir)).size / 2)),
    reason: /ignored \(truncated: no checksum line\)/,
  },
  {
    name: 'a memo with a flipped byte',
    damage: (repo) => {
      const data = readFileSync(hubMemoPath(repo.gitdir));
      data[Math.floor(data.length / 2)]! ^= 0x01;
      writeFileSync(hubMemoPath(repo.gitdir), data);
    },
    reason: /ignored \(its checksum does not match\)/,
  },
  {
    name: 'a memo of another format version',
    damage: (repo) =>
      rewriteMemo(repo, (m) => ({ ...m, header: m.header.replace('"version":2', '"version":3') })),
    reason: /ignored \(format version 3, not 2\)/,
  },
  {
    name: 'a memo written at another bindings head',
    damage: (repo) =>
      rewriteMemo(repo, (m) => ({
        ...m,
        header: m.header.replace(/("refs\/heads\/gitfleet\/bindings":")[0-9a-f]{40}/, `$1${'0'.repeat(40)}`),
      })),
    reason: /ignored \(written at other refs \(refs\/heads\/gitfleet\/bindings: 0{40} → [0-9a-f]{40}\)\)/,
  },
  {
    name: 'a memo written at another cluster head (someone else moved the branch)',
    both: moveClusterBranch,
    damage: () => undefined,
    reason:
      /ignored \(written at other refs \(refs\/heads\/gitfleet\/clusters\/onprem-gpu: [0-9a-f]{40} → [0-9a-f]{40}\)\)/,
  },
  {
    name: 'a memo whose body this hub cannot read (its checksum right)',
    damage: (repo) => rewriteMemo(repo, (m) => ({ ...m, body: Buffer.from('{"strings":[],"root":["x"]}') })),
    reason: /ignored \(hub memo: not an encoded graph\)/,
  },
  {
    name: 'a memo of the right kinds whose parts do not fit together (its checksum right)',
    damage: (repo) =>
      rewriteMemo(repo, (m) => ({
        ...m,
        body: encodeGraph({
          recordTexts: new Map(),
          branches: new Map([['refs/heads/gitfleet/clusters/onprem-gpu', { head: 'none' }]]),
          textOids: new Map(),
          ...Object.fromEntries(
            ['records', 'treeFiles', 'commits', 'sourceTexts', 'reports'].map((k) => [k, []]),
          ),
        }),
      })),
    reason: /ignored \(Cannot read properties of undefined \(reading 'files'\)\)/,
  },
];

for (const c of cases) {
  test(`${c.name} is ignored with one log line, and the pass writes what a full pass writes`, async () => {
    const full = exampleFleetRepo({ bare: false });
    const memo = exampleFleetRepo({ bare: false });
    rendered(await hubPass(full, { persistMemo: false }));
    rendered((await restartedHubPass(memo)).result);
    for (const repo of [full, memo]) {
      c.both?.(repo);
      commitChange(repo, 'bump web', bumpWeb);
    }
    c.damage(memo);
    const expected = rendered(await hubPass(full, { persistMemo: false }));
    const { result, lines } = await restartedHubPass(memo);
    assert.deepEqual(hubRefs(memo), hubRefs(full));
    assert.deepEqual(rendered(result).clusters, expected.clusters);
    assert.equal(rendered(result).written.hashedTexts, expected.written.hashedTexts);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, c.reason);
    // The pass wrote a good memo again: the next restart uses it.
    commitChange(memo, 'bump web again', (work) => {
      const file = join(work, 'apps/shop/web.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('shop/web:1.9.0', 'shop/web:1.9.1'));
    });
    assert.deepEqual((await restartedHubPass(memo)).lines, [usedLine(memo)]);
  });
}

test('a memo that cannot be written is a warning: the pass is rendered, and the next one is a full one', async () => {
  const repo = exampleFleetRepo({ bare: false });
  // Where the memo's directory goes, a file: neither the directory nor the memo can be made.
  writeFileSync(join(repo.gitdir, 'gitfleet'), 'in the way\n');
  const { result, lines } = await restartedHubPass(repo);
  rendered(result);
  // Beside the info line a first pass on a repository logs once (source commits not verified).
  const warnings = lines.filter((l) => !l.startsWith('source commits are not verified'));
  assert.equal(warnings.length, 1, lines.join('\n'));
  assert.match(warnings[0]!, /^warn: .*hub-memo-v2: not written \(.*\); a restart renders everything$/);
  rmSync(join(repo.gitdir, 'gitfleet'));
  mkdirSync(join(repo.gitdir, 'gitfleet'));
  commitChange(repo, 'bump web', bumpWeb);
  const next = await restartedHubPass(repo);
  // Nothing to read: no line, and every text is hashed.
  assert.deepEqual(next.lines, []);
  assert.ok(rendered(next.result).written.hashedTexts > 10);
});
