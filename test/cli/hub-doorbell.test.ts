// The hub's doorbell wired into the hub loop (cli/commands/hub-doorbell.ts through runHub), on
// a real fleet repository with a scripted leadership: a standby answers 503; once leading, a
// wait is answered with the branch head the pass pushed, a held wait is answered after the
// pass that moves its branch has moved it, and a lost lease sends the held waits back (503).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runHub } from '../../src/cli/commands/hub.js';
import type { Io } from '../../src/cli/io.js';
import type { Leadership } from '../../src/loops/runtime/leadership.js';
import { Readiness } from '../../src/loops/runtime/readiness.js';
import { commitChange, exampleFleetRepo, hubRefs, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { eventually } from '../support/eventually.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeFleetRepos);
after(removeTempDirs);

/** A leadership the test drives: it leads when `grant` is called, loses when `lose` is. */
function scriptedLeadership() {
  let leading = false;
  let grant: () => void = () => undefined;
  const lost: (() => void)[] = [];
  const calls = { acquire: 0, release: 0 };
  const leadership: Leadership = {
    elected: true,
    acquire: (signal) => {
      calls.acquire++;
      return new Promise<boolean>((resolve) => {
        grant = () => {
          leading = true;
          resolve(true);
        };
        signal.addEventListener('abort', () => resolve(false), { once: true });
      });
    },
    isLeading: () => leading,
    onLost: (listener) => void lost.push(listener),
    release: async () => {
      calls.release++;
      leading = false;
    },
  };
  return {
    leadership,
    calls,
    grant: () => grant(),
    overdue: () => (leading = false),
    lose: () => {
      leading = false;
      for (const listener of lost) listener();
    },
  };
}

function liveIo(): Io & { text: () => string; interrupt: () => void } {
  const lines: string[] = [];
  let interrupt!: () => void;
  const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
  return {
    out: (t) => lines.push(t),
    err: (t) => lines.push(t),
    untilInterrupted: () => interrupted,
    text: () => lines.join('\n'),
    interrupt: () => interrupt(),
  };
}

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
