// What a running hub prints while agents push status (issue 29): the first pass in full,
// stamped with its time; the passes that only record status print nothing at the default level,
// and one short line each with --log-level debug. The hub runs as the CLI runs it (main), on a
// real repository whose status branches move as agents move them.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../src/cli/main.js';
import { commitReadyReport, exampleFleetRepo, hubRefs, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { eventually } from '../support/eventually.js';
import { liveIo } from './hub-test-io.js';

after(removeFleetRepos);

const stamp = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`;
const bindings = 'refs/heads/gitfleet/bindings';

/** Runs the hub loop while three agents report, one after another; returns what it printed. */
async function hubWhileAgentsReport(extra: string[]): Promise<string[]> {
  const repo = exampleFleetRepo({ bare: true });
  const io = liveIo();
  const running = main(['hub', '--repo', repo.path, '--interval', '1h', ...extra], io);
  await eventually(() => hubRefs(repo).has(bindings), 'the first pass');
  for (const cluster of ['aws-eu-prod', 'aws-us-prod', 'gcp-eu-prod']) {
    const before = hubRefs(repo).get(bindings);
    await commitReadyReport(repo, cluster, 'True');
    await eventually(() => hubRefs(repo).get(bindings) !== before, `the pass after ${cluster} reported`);
  }
  io.interrupt();
  assert.equal(await running, 0);
  return io.text().split('\n');
}

test('a running hub prints its first pass in full, stamped, and nothing for the passes that only recorded status', async () => {
  const lines = await hubWhileAgentsReport([]);
  const blocks = lines.filter((l) => / hub: rendered /.test(l));
  assert.equal(blocks.length, 1, lines.join('\n'));
  assert.match(
    blocks[0]!,
    new RegExp(`^${stamp} hub: rendered refs/heads/main [0-9a-f]{7} \\(initial fleet\\) in \\d+ ms$`),
  );
  assert.ok(
    lines.some((l) => /^ {2}aws-eu-prod\s+updated\s/.test(l)),
    'the block’s table follows its first line, unstamped',
  );
  assert.ok(!lines.some((l) => /no cluster branch changed|debug:/.test(l)), lines.join('\n'));
  for (const line of lines.filter((l) => / hub: /.test(l)))
    assert.match(line, new RegExp(`^${stamp} hub: `), 'every log line starts with its time');
});

test('with --log-level debug each status-only pass is one line: no cluster branch changed, the bindings commit', async () => {
  const lines = await hubWhileAgentsReport(['--log-level', 'debug']);
  const quiet = lines.filter((l) => /no cluster branch changed/.test(l));
  assert.equal(quiet.length, 3, lines.join('\n'));
  for (const line of quiet)
    assert.match(
      line,
      new RegExp(
        `^${stamp} hub: rendered refs/heads/main [0-9a-f]{7} \\(initial fleet\\) in \\d+ ms: no cluster branch changed; bindings [0-9a-f]{7} \\(\\d+ records changed\\)$`,
      ),
    );
  assert.equal(lines.filter((l) => / hub: rendered /.test(l)).length, 4, 'one block and three lines');
});

test('--log-level error keeps the passes that went well off stdout; a bad level is a usage error', async () => {
  const lines = await hubWhileAgentsReport(['--log-level', 'error']);
  assert.ok(!lines.some((l) => / hub: /.test(l)), lines.join('\n'));
  const io = liveIo();
  assert.equal(await main(['hub', '--repo', '.', '--log-level', 'verbose'], io), 2);
  assert.match(io.text(), /--log-level must be debug, info, warn or error, not 'verbose'/);
});
