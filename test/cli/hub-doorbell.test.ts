// The hub's doorbell wired into the hub loop (cli/commands/hub-doorbell.ts through runHub), on
// a real fleet repository with a scripted leadership: a standby answers 503; once leading, a
// wait is answered with the branch head the pass pushed, a held wait is answered after the
// pass that moves its branch has moved it, and a lost lease sends the held waits back (503).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runHub } from '../../src/cli/commands/hub.js';
import { Readiness } from '../../src/loops/runtime/readiness.js';
import { commitChange, exampleFleetRepo, hubRefs, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { eventually } from '../support/eventually.js';
import { liveIo, scriptedLeadership } from './hub-test-io.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeFleetRepos);
after(removeTempDirs);

const clusters = ['aws-eu-prod', 'aws-us-prod', 'gcp-eu-prod', 'gcp-eu-staging', 'onprem-gpu'];

async function wait(
  url: string,
  cluster: string,
  after: string,
): Promise<{ status: number; head?: string | null }> {
  const response = await fetch(`${url}/v1/clusters/${cluster}/wait?after=${after}`, {
    headers: { Authorization: `Bearer token-of-${cluster}` },
  });
  const text = await response.text();
  return response.status === 200
    ? { status: 200, head: (JSON.parse(text) as { head: string | null }).head }
    : { status: response.status };
}

test(
  'the hub rings an agent after the pass that moved its branch, only while it leads',
  { timeout: 120_000 },
  async () => {
    const repo = exampleFleetRepo({ bare: true });
    const tokens = join(tempDir('hub-doorbell'), 'tokens.yaml');
    writeFileSync(tokens, clusters.map((c) => `${c}: token-of-${c}`).join('\n'));
    const io = liveIo();
    const script = scriptedLeadership();
    const readiness = new Readiness();
    const running = runHub(
      {
        repo: repo.path,
        sourceRef: 'main',
        once: false,
        intervalMs: 3_600_000,
        output: 'text',
        notify: { addr: '127.0.0.1:0', tokensFile: tokens },
      },
      io,
      { leadership: script.leadership, readiness },
    );
    await eventually(
      () => /doorbell: listening on (\S+) for 5 clusters/.test(io.text()),
      'the doorbell listens',
    );
    const url = /doorbell: listening on (\S+) for/.exec(io.text())![1]!;
    await eventually(() => /standing by/.test(io.text()), 'standby');
    assert.equal((await wait(url, 'onprem-gpu', '')).status, 503, 'a standby sends agents back to polling');

    script.grant();
    await eventually(
      () => /hub: rendered .*\(initial fleet\)/.test(io.text()),
      'the first pass once leading',
    );
    const heads = hubRefs(repo);
    const branch = (c: string) => heads.get(`refs/heads/gitfleet/clusters/${c}`) ?? null;
    for (const c of clusters) assert.deepEqual(await wait(url, c, ''), { status: 200, head: branch(c) });

    const held = clusters.map((c) => wait(url, c, branch(c) ?? '').then((answer) => ({ c, answer })));
    commitChange(repo, 'api 9.9.9', (work) => {
      const file = join(work, 'apps/shop/api.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/image: (\S+):(\S+)/, 'image: $1:9.9.9'));
    });
    const first = await Promise.race(held);
    const now = hubRefs(repo).get(`refs/heads/gitfleet/clusters/${first.c}`);
    assert.deepEqual(first.answer, { status: 200, head: now }, 'answered with the head pushed');
    assert.notEqual(now, branch(first.c));

    script.lose();
    const rest = await Promise.all(held);
    for (const { c, answer } of rest) {
      const moved = hubRefs(repo).get(`refs/heads/gitfleet/clusters/${c}`) !== branch(c);
      assert.equal(
        answer.status,
        moved ? 200 : 503,
        `${c}: rung if moved, else sent back when the lease was lost`,
      );
    }
    io.interrupt();
    assert.equal(await running, 0);
  },
);

test(
  'with a render repository, the doorbell answers with the head the hub pushed there, and rings after the push',
  { timeout: 120_000 },
  async () => {
    const repo = exampleFleetRepo({ bare: true });
    const render = join(tempDir('hub-doorbell-render'), 'render.git');
    execFileSync('git', ['init', '-q', '--bare', render]);
    commitChange(repo, 'a render repository', (work) => {
      const file = join(work, 'fleet.yaml');
      writeFileSync(
        file,
        `${readFileSync(file, 'utf8')}  renderRepositories:\n    - { name: r, url: "${render}" }\n`,
      );
    });
    const tokens = join(tempDir('hub-doorbell'), 'tokens.yaml');
    writeFileSync(tokens, clusters.map((c) => `${c}: token-of-${c}`).join('\n'));
    const io = liveIo();
    const script = scriptedLeadership();
    const running = runHub(
      {
        repo: repo.path,
        sourceRef: 'main',
        once: false,
        intervalMs: 3_600_000,
        output: 'text',
        notify: { addr: '127.0.0.1:0', tokensFile: tokens },
      },
      io,
      { leadership: script.leadership, readiness: new Readiness() },
    );
    await eventually(() => /doorbell: listening on (\S+) for/.test(io.text()), 'the doorbell listens');
    const url = /doorbell: listening on (\S+) for/.exec(io.text())![1]!;
    script.grant();
    await eventually(() => /hub: rendered .*\(a render repository\)/.test(io.text()), 'the first pass');
    const inRender = (c: string) =>
      execFileSync('git', ['--git-dir', render, 'rev-parse', `refs/heads/gitfleet/clusters/${c}`], {
        encoding: 'utf8',
      }).trim();
    assert.equal([...hubRefs(repo).keys()].filter((r) => r.includes('/clusters/')).length, 0);
    for (const c of clusters) assert.deepEqual(await wait(url, c, ''), { status: 200, head: inRender(c) });
    const held = clusters.map((c) => wait(url, c, inRender(c)).then((answer) => ({ c, answer })));
    commitChange(repo, 'api 9.9.9', (work) => {
      const file = join(work, 'apps/shop/api.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/image: (\S+):(\S+)/, 'image: $1:9.9.9'));
    });
    const first = await Promise.race(held);
    assert.deepEqual(
      first.answer,
      { status: 200, head: inRender(first.c) },
      'rung with the head pushed there',
    );
    script.lose();
    await Promise.all(held);
    io.interrupt();
    assert.equal(await running, 0);
  },
);
