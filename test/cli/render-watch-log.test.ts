// What `gitfleet render --watch` prints as a user runs it (issue 29, logs people can read): every
// report stamped with RFC 3339 time on its first line (its other lines indented under it);
// --log-level debug adds a line for each save seen; --log-level error prints only a render that
// failed. A real process of bin/gitfleet.js on a copy of the example fleet.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleFleetRepo, gitEnv, removeFleetRepos, repoRoot } from '../loops/hub/hub-fixture.js';
import { eventually } from '../support/eventually.js';
import { assertStamped, stamp } from '../support/assert-stamped.js';

after(removeFleetRepos);

/** Starts `gitfleet render <repo> --watch --out <dir> …`; keeps its stdout and stderr lines. */
function startWatch(repo: string, extra: string[]) {
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, 'bin/gitfleet.js'),
      'render',
      repo,
      '--watch',
      '--out',
      join(repo, '..', 'out'),
      ...extra,
    ],
    { env: gitEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out: string[] = [];
  const err: string[] = [];
  const keep = (into: string[]) => {
    let pending = '';
    return (chunk: Buffer) => {
      const parts = (pending + chunk.toString()).split('\n');
      pending = parts.pop() ?? '';
      into.push(...parts);
    };
  };
  child.stdout.on('data', keep(out));
  child.stderr.on('data', keep(err));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return {
    out,
    err,
    all: () => [...out, ...err].join('\n'),
    /** Waits for a line of `lines` matching `pattern`; fails at once if the process exited. */
    waitFor: (lines: string[], pattern: RegExp, onEachLook: () => void = () => undefined) =>
      eventually(
        () => {
          if (child.exitCode !== null)
            throw new Error(`render --watch exited:\n${[...out, ...err].join('\n')}`);
          onEachLook();
          return lines.some((l) => pattern.test(l));
        },
        `a line ${pattern}`,
        60_000,
      ),
    stop: async () => {
      child.kill('SIGTERM');
      await closed;
    },
  };
}

test('render --watch stamps its reports, and at --log-level debug says which save it renders again', async () => {
  const repo = exampleFleetRepo({ bare: false }).path;
  const watch = startWatch(repo, ['--log-level', 'debug']);
  try {
    await watch.waitFor(watch.out, new RegExp(`^${stamp} watching ${repo}; press Ctrl-C to stop$`));
    const web = join(repo, 'apps/shop/web.yaml');
    writeFileSync(web, readFileSync(web, 'utf8').replace('replicas: 10', 'replicas: 12'));
    await watch.waitFor(
      watch.out,
      new RegExp(`^ {2}changed +aws-eu-prod/shop/Deployment\\.apps/web\\.yaml$`),
    );
    await watch.waitFor(
      watch.err,
      new RegExp(`^${stamp} gitfleet render: debug: change ${web}: rendering again$`),
    );
  } finally {
    await watch.stop();
  }
  assertStamped(watch.out);
  assertStamped(watch.err);
  assert.match(watch.out[0] ?? '', new RegExp(`^${stamp} rendered: \\d+ file\\(s\\) changed$`), watch.all());
  const renders = watch.out.filter((l) => new RegExp(`^${stamp} rendered: `).test(l));
  assert.ok(renders.length >= 2, 'the first render and the one after the save');
});

test('render --watch --log-level error prints nothing of the renders that went well, and a failed one, stamped', async () => {
  const repo = exampleFleetRepo({ bare: false }).path;
  const watch = startWatch(repo, ['--log-level', 'error']);
  const web = join(repo, 'apps/shop/web.yaml');
  // Nothing says when the watcher is ready at this level: the file is saved again at each look
  // until a render of it failed (a save before the watcher is ready is not seen).
  let saves = 0;
  try {
    await watch.waitFor(watch.err, /render failed/, () => {
      if (saves++ % 25 === 0) writeFileSync(web, `kind: [not closed ${saves}\n`);
    });
  } finally {
    await watch.stop();
  }
  assert.deepEqual(watch.out, [], watch.all());
  assertStamped(watch.err);
  assert.match(
    watch.err[0] ?? '',
    new RegExp(`^${stamp} render failed; .*/out keeps the last good output:$`),
    watch.all(),
  );
  assert.ok(
    watch.err.some((l) => /^ {2}.*apps\/shop\/web\.yaml/.test(l)),
    watch.all(),
  );
});
