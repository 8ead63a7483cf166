import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashObject } from '../../../src/adapters/git/hash-object.js';
import { selectNewObjects } from '../../../src/adapters/git/select-new-objects.js';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import { TextBlobs } from '../../../src/loops/hub/text-blobs.js';

test('a text many branches render is one blob, made once, with the text as its content', () => {
  const blobs = new TextBlobs(createHubPassCache());
  const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared}\n';
  const oids = ['a', 'b', 'c'].map((branch) => blobs.oidAt(`refs/heads/${branch}`, 'cm.yaml', text));
  assert.deepEqual(new Set(oids), new Set([hashObject('blob', Buffer.from(text))]));
  const first = blobs.blob(oids[0]!);
  assert.equal(Buffer.from(first.content).toString('utf8'), text);
  // Asked again by another branch: the same object, not a fresh copy of the text.
  assert.equal(blobs.blob(oids[2]!), first);
  assert.equal(blobs.hashed, 1);
});

test('selectNewObjects still rejects a malformed id, and keeps one object per id', () => {
  const content = Buffer.from('x');
  const oid = hashObject('blob', content);
  const selected = selectNewObjects([
    { type: 'blob', content, oid },
    { type: 'blob', content, oid },
  ]);
  assert.equal(selected.length, 1);
  assert.throws(
    () => selectNewObjects([{ type: 'blob', content, oid: 'not-an-id' }]),
    /not-an-id: not an object id/,
  );
});
