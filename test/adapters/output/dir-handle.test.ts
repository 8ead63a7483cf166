import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { DirHandle } from '../../../src/adapters/output/dir-handle.js';

const root = mkdtempSync(join(tmpdir(), 'gitfleet-dir-handle-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('A closed directory handle refuses to name anything rather than resolve its path again', () => {
  mkdirSync(join(root, 'out', 'c1'), { recursive: true });
  const out = DirHandle.openRoot(join(root, 'out'));
  const c1 = out.openChild('c1');
  c1.close();
  assert.throws(() => c1.entry('x.yaml'), /used after it was closed/);
  assert.throws(() => c1.self(), /used after it was closed/);
  assert.throws(() => c1.openChild('sub', true), /used after it was closed/);
  out.close();
});

test('A directory swapped for a link is refused when opened through its parent', () => {
  mkdirSync(join(root, 'elsewhere'));
  mkdirSync(join(root, 'out2'));
  symlinkSync(join(root, 'elsewhere'), join(root, 'out2', 'c1'));
  const out = DirHandle.openRoot(join(root, 'out2'));
  try {
    assert.throws(() => out.openChild('c1'), /symbolic link or not a directory/);
  } finally {
    out.close();
  }
});
