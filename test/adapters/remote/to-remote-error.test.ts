import { test } from 'node:test';
import assert from 'node:assert/strict';
import git from 'isomorphic-git';
import { RemoteError, type RemoteErrorCode } from '../../../src/adapters/remote/remote-error.js';
import { toRemoteError } from '../../../src/adapters/remote/to-remote-error.js';

const { Errors } = git;
const ctx = {
  action: 'push',
  url: 'https://host/fleet.git',
  ref: 'refs/heads/gitfleet/x',
  secrets: ['tok-secret'],
};
const pushResult = (error: string) => ({
  ok: true,
  error: null,
  refs: { 'refs/heads/gitfleet/x': { ok: false, error } },
});

const cases: { name: string; given: unknown; want: { code: RemoteErrorCode; terminal: boolean } }[] = [
  {
    name: 'HTTP 401 means the credentials are missing or refused.',
    given: new Errors.HttpError(401, 'Unauthorized', ''),
    want: { code: 'AuthFailed', terminal: true },
  },
  {
    name: 'HTTP 403 means the token may not do this.',
    given: new Errors.HttpError(403, 'Forbidden', 'token tok-secret lacks scope'),
    want: { code: 'AuthFailed', terminal: true },
  },
  {
    name: 'HTTP 404 means no repository there.',
    given: new Errors.HttpError(404, 'Not Found', ''),
    want: { code: 'NotFound', terminal: true },
  },
  {
    name: 'HTTP 503 may pass, so it can be retried.',
    given: new Errors.HttpError(503, 'Service Unavailable', ''),
    want: { code: 'Unreachable', terminal: false },
  },
  {
    name: 'A refused connection may pass, so it can be retried.',
    given: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    want: { code: 'Unreachable', terminal: false },
  },
  {
    name: "isomorphic-git's non-fast-forward refusal is a lost race.",
    given: new Errors.PushRejectedError('not-fast-forward'),
    want: { code: 'PushRejected', terminal: false },
  },
  {
    name: "receive-pack's failure to lock or update the ref is a lost race.",
    given: new Errors.GitPushError('x', pushResult('failed to update ref')),
    want: { code: 'PushRejected', terminal: false },
  },
  {
    name: 'A push declined by a server hook is not a race and retrying will not help.',
    given: new Errors.GitPushError('x', pushResult('pre-receive hook declined')),
    want: { code: 'PushDeclined', terminal: true },
  },
  {
    name: 'An answer that is not smart HTTP means no git repository at that URL.',
    given: new Errors.SmartHttpError('<html>', '<html>'),
    want: { code: 'NotFound', terminal: true },
  },
  {
    name: 'Anything else is reported as a remote failure.',
    given: new Error('boom'),
    want: { code: 'RemoteFailed', terminal: true },
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const error = toRemoteError(given, ctx);
    assert.deepEqual({ code: error.code, terminal: error.terminal }, want);
    assert.ok(
      error.message.startsWith('refs/heads/gitfleet/x: https://host/fleet.git: push failed: '),
      error.message,
    );
    assert.ok(!error.message.includes('tok-secret'));
  });
}

test('A RemoteError passes through unchanged.', () => {
  const original = new RemoteError('PushRejected', 'x');
  assert.equal(toRemoteError(original, ctx), original);
});

test('A message quoting a URL with credentials or a known secret is masked.', () => {
  const error = toRemoteError(
    new Error('GET https://u:tok-secret@host/fleet.git/info/refs with tok-secret'),
    ctx,
  );
  assert.ok(!error.message.includes('tok-secret') && !error.message.includes('u:'), error.message);
});
