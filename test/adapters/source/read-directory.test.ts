import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readDirectorySource } from '../../../src/adapters/source/read-directory.js';
import { cleanup, link, tempDir, writeFiles } from './git-fixture.js';

after(cleanup);

test('A directory is read recursively: fleet files only, relative paths with /, sorted by path.', async () => {
  const dir = tempDir('dir');
  writeFiles(dir, {
    'b.yaml': 'b: 1\n',
    'a/z.yml': 'z: 1\n',
    'a/b/c.yaml': 'c: 1\n',
    'a-b.yaml': 'ab: 1\n',
    'notes.txt': 'no\n',
    '.git/config.yaml': 'no\n',
    '.github/workflows/ci.yml': 'no\n',
    'a/.cache/x.yaml': 'no\n',
  });
  assert.deepEqual(await readDirectorySource(dir), [
    { path: 'a-b.yaml', content: 'ab: 1\n' },
    { path: 'a/b/c.yaml', content: 'c: 1\n' },
    { path: 'a/z.yml', content: 'z: 1\n' },
    { path: 'b.yaml', content: 'b: 1\n' },
  ]);
});

test('Symbolic links are skipped, to files and to directories, so nothing outside the tree is read.', async () => {
  const outside = tempDir('outside');
  writeFiles(outside, { 'secret.yaml': 'secret: 1\n' });
  const dir = tempDir('dir');
  writeFiles(dir, { 'real.yaml': 'real: 1\n' });
  link(dir, 'file-link.yaml', `${outside}/secret.yaml`);
  link(dir, 'dir-link', outside);
  link(dir, 'loop', '.');
  assert.deepEqual(await readDirectorySource(dir), [{ path: 'real.yaml', content: 'real: 1\n' }]);
});

test('Text is decoded as UTF-8 with a leading byte-order mark dropped.', async () => {
  const dir = tempDir('dir');
  writeFiles(dir, { 'bom.yaml': new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x3a, 0x20, 0xc3, 0xa9, 0x0a]) });
  assert.deepEqual(await readDirectorySource(dir), [{ path: 'bom.yaml', content: 'a: \u00e9\n' }]);
});
