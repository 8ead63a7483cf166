// `gitfleet log` says where a commit's imported endpoints came from: the Gitfleet-Endpoints-From
// trailers a hub writes (core/publish/commit-message.ts), read back and shown under the entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderCommitMessage } from '../../../src/core/publish/commit-message.js';
import { formatLogText } from '../../../src/core/review/format-log-text.js';
import type { LogEntry } from '../../../src/core/review/log-entry.js';
import { parseRenderCommit } from '../../../src/core/review/parse-render-commit.js';

const message = renderCommitMessage({
  sourceCommit: '1a2b3c4d5e6f',
  sourceRef: 'refs/heads/main',
  sourceSubject: 'scale web',
  changes: [{ path: 'shop/EndpointSlice.discovery.k8s.io/imported-member1-web-a.yaml', change: 'changed' }],
  endpointsFrom: ['member1 shop/web', 'member3 shop/web'],
});

test('a render commit’s Gitfleet-Endpoints-From trailers are read back', () => {
  assert.deepEqual(parseRenderCommit(message).endpointsFrom, ['member1 shop/web', 'member3 shop/web']);
  const plain = renderCommitMessage({ sourceCommit: 'ab', sourceRef: 'r', sourceSubject: 's', changes: [] });
  assert.equal(parseRenderCommit(plain).endpointsFrom, undefined);
});

test('the log shows where the endpoints came from under the entry, and nothing for other commits', () => {
  const entry: LogEntry = {
    cluster: 'member2',
    commit: 'c0ffee0000',
    time: 0,
    subject: 'render 1a2b3c4: scale web',
    type: 'render',
    changes: [{ path: 'shop/EndpointSlice.discovery.k8s.io/imported-member1-web-a.yaml', change: 'changed' }],
    source: null,
    endpointsFrom: ['member1 shop/web', 'member3 shop/web'],
  };
  const { endpointsFrom: _, ...plain } = entry;
  assert.equal(
    formatLogText([entry], { followsObject: false }).split('\n')[2],
    '    endpoints from member1 shop/web, member3 shop/web',
  );
  assert.equal(formatLogText([plain], { followsObject: false }).split('\n').length, 2);
});
