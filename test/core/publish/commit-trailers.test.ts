import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deletionsAllowedBy, parseTrailers } from '../../../src/core/publish/commit-trailers.js';
import { renderCommitMessage } from '../../../src/core/publish/commit-message.js';

test('trailers are read from the last paragraph only', () => {
  const t = parseTrailers('subject\n\nBody: not a trailer\nmore text\n\nA-B: 1\nA-B: 2\nC: x\n');
  assert.deepEqual(
    [...t.entries()],
    [
      ['A-B', ['1', '2']],
      ['C', ['x']],
    ],
  );
  assert.equal(parseTrailers('Only-Subject: x').size, 0);
  assert.equal(parseTrailers('s\n\nnot: a trailer\nplain line').size, 0);
});

const allows: { name: string; message: string; cluster: string; want: boolean }[] = [
  { name: 'no trailer allows nothing', message: 'remove apps\n\nbody', cluster: 'm1', want: false },
  {
    name: 'a named cluster is allowed',
    message: 'x\n\nGitfleet-Allow-Deletions: m1, m2',
    cluster: 'm2',
    want: true,
  },
  {
    name: 'another cluster is not',
    message: 'x\n\nGitfleet-Allow-Deletions: m1',
    cluster: 'm3',
    want: false,
  },
  {
    name: 'all allows every cluster',
    message: 'x\n\nGitfleet-Allow-Deletions: all',
    cluster: 'm9',
    want: true,
  },
  {
    name: 'the trailer in the body is no trailer',
    message: 'x\n\nGitfleet-Allow-Deletions: all\n\nfooter text',
    cluster: 'm1',
    want: false,
  },
];
for (const c of allows) test(c.name, () => assert.equal(deletionsAllowedBy(c.message)(c.cluster), c.want));

test('a render commit names the source commit in its subject, lists changes and carries provenance trailers', () => {
  const message = renderCommitMessage({
    sourceCommit: '1a2b3c4d5e6f',
    sourceRef: 'refs/heads/main',
    sourceSubject: 'bump nginx to 1.27',
    changes: [{ path: 'default/Deployment.apps/nginx.yaml', change: 'changed' }],
  });
  assert.equal(
    message,
    'render 1a2b3c4: bump nginx to 1.27\n\ndefault/Deployment.apps/nginx: changed\n\n' +
      'Gitfleet-Source-Commit: 1a2b3c4d5e6f\nGitfleet-Source-Ref: refs/heads/main\n',
  );
  assert.deepEqual(parseTrailers(message).get('Gitfleet-Source-Commit'), ['1a2b3c4d5e6f']);
});

test('a restore commit says where the branch was found and names that commit in a trailer', () => {
  const found = 'f'.repeat(40);
  const last = 'a'.repeat(40);
  const message = renderCommitMessage({
    sourceCommit: '1'.repeat(40),
    sourceRef: 'refs/heads/main',
    sourceSubject: 'bump',
    changes: [{ path: 'default/Deployment.apps/web.yaml', change: 'changed' }],
    restoredFrom: { found, lastWritten: last },
  });
  assert.match(message, new RegExp(`^restored: the branch was found at ${found}, not at ${last}`, 'm'));
  assert.deepEqual(parseTrailers(message).get('Gitfleet-Restored-From'), [found]);
  assert.deepEqual(parseTrailers(message).get('Gitfleet-Source-Ref'), ['refs/heads/main']);
  // A branch someone deleted has no commit to name.
  const deleted = renderCommitMessage({
    sourceCommit: '1'.repeat(40),
    sourceRef: 'refs/heads/main',
    sourceSubject: 'bump',
    changes: [],
    restoredFrom: { found: null, lastWritten: last },
  });
  assert.match(deleted, /found at no commit \(deleted\)/);
  assert.equal(parseTrailers(deleted).has('Gitfleet-Restored-From'), false);
});
