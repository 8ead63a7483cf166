// collectAnswer reads a body to its end and then lets go of it: none of its listeners stay on
// the body once it settles (an HTTP/2 stream outlives its exchange, in a profile until a full collection, and
// what its listeners reach would live as long), and an error after that is nobody's to throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { collectAnswer } from '../../../src/adapters/kube/kube-wire.js';

const ours = (body: PassThrough) =>
  Object.fromEntries(['data', 'end', 'close', 'error'].map((e) => [e, body.listenerCount(e)]));

test('a body read to its end gives its text, status and Retry-After, and keeps no listener but one for errors', async () => {
  const body = new PassThrough();
  const before = ours(body);
  const answer = collectAnswer(body, 429, '3');
  body.write(Buffer.from('{"kind":'));
  body.write(Buffer.from('"Status","message":"ü"}'));
  body.end();
  assert.deepEqual(await answer, { status: 429, body: '{"kind":"Status","message":"ü"}', retryAfter: '3' });
  assert.deepEqual(ours(body), { ...before, error: before['error']! + 1 });
  body.emit('error', new Error('reset after the answer'));
});

test('a body that closes before its end rejects, and lets go of it the same way', async () => {
  const body = new PassThrough();
  const before = ours(body);
  const answer = collectAnswer(body, 200, undefined);
  body.write('{"kind":');
  body.destroy();
  await assert.rejects(answer, /closed before the answer ended/);
  assert.deepEqual(ours(body), { ...before, error: before['error']! + 1 });
});

test('an error on the body rejects with it', async () => {
  const body = new PassThrough();
  const answer = collectAnswer(body, 200, undefined);
  body.destroy(new Error('stream reset'));
  await assert.rejects(answer, /stream reset/);
});
