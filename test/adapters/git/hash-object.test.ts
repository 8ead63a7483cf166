import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { hashObject } from '../../../src/adapters/git/hash-object.js';
import type { GitObjectType } from '../../../src/adapters/git/git-object.js';
import { git, makeRepo, removeRepos } from './git-repo-fixture.js';

after(removeRepos);

const cases: { name: string; given: { type: GitObjectType; content: Buffer } }[] = [
  {
    name: 'An empty blob has the id git gives the empty file.',
    given: { type: 'blob', content: Buffer.alloc(0) },
  },
  {
    name: 'A text blob has the id git hash-object gives it.',
    given: { type: 'blob', content: Buffer.from('kind: Service\n') },
  },
  {
    name: 'A blob of arbitrary bytes, NUL included, has the id git hash-object gives it.',
    given: { type: 'blob', content: Buffer.from([0, 1, 2, 255, 254, 10, 0]) },
  },
  {
    name: 'A blob of multi-byte UTF-8 is hashed by its byte length, not its character count.',
    given: { type: 'blob', content: Buffer.from('name: café ☕\n') },
  },
  {
    name: 'A commit is hashed with the commit header.',
    given: {
      type: 'commit',
      content: Buffer.from(
        'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@x> 1700000000 +0000\ncommitter A <a@x> 1700000000 +0000\n\nm\n',
      ),
    },
  },
];

for (const { name, given } of cases) {
  test(name, () => {
    const repo = makeRepo({ bare: true });
    const want = git(repo, ['hash-object', '-t', given.type, '--stdin'], given.content);
    assert.equal(hashObject(given.type, given.content), want);
  });
}

test('An empty tree has the well-known empty tree id.', () => {
  assert.equal(hashObject('tree', new Uint8Array(0)), '4b825dc642cb6eb9a060e54bf8d69288fbee4904');
});
