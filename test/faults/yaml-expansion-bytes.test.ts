// Fault: a tiny YAML file whose aliases repeat one long string until it stands for tens of
// megabytes (or gigabytes) of text; it must be refused, naming the file, before anything is rendered.
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../cli/run-cli.js';
import { aFleetDir } from './fleet-dir.js';

const dir = aFleetDir();
after(() => dir.remove());

/** A ConfigMap whose `bomb` field aliases one string of `stringBytes` 100,000 times. */
function aliasBomb(stringBytes: number): string {
  const lines = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata: {name: bomb, namespace: default}',
    `s: &l0 "${'x'.repeat(stringBytes)}"`,
  ];
  for (let i = 1; i <= 5; i++)
    lines.push(
      `l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(',')}]`,
    );
  return lines.join('\n') + '\n';
}

test('An 800-byte alias bomb of 50 MB is refused by render, naming the file, document and line; nothing is written.', async () => {
  dir.write('bomb.yaml', aliasBomb(500));
  assert.ok(statSync(join(dir.fleet, 'bomb.yaml')).size < 900);
  const out = join(dir.root, 'out');

  const run = await runCli(['render', dir.fleet, '--out', out]);

  assert.equal(run.code, 1);
  assert.match(run.stderr, /^bomb\.yaml#0:1: document expands to more than \d+ bytes through aliases/m);
  assert.equal(existsSync(out), false);
});

test('A 20 KB alias bomb of 1.5 GB is refused by validate with the same error instead of running out of memory.', async () => {
  dir.write('bomb.yaml', aliasBomb(15_000));

  const run = await runCli(['validate', dir.fleet]);

  assert.equal(run.code, 1);
  assert.match(run.stderr, /^bomb\.yaml#0:1: document expands to more than \d+ bytes through aliases/m);
});
