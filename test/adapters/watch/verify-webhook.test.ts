import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  claimedRef,
  verifyWebhook,
  type WebhookVerdict,
} from '../../../src/adapters/watch/verify-webhook.js';
import { hmacHex } from './webhook-client.js';

const secret = 'shared-secret';
const body = JSON.stringify({ ref: 'refs/heads/main', after: 'abc' });
const sig = hmacHex(secret, body);
const wrongSig = hmacHex('another-secret', body);

const cases: { name: string; given: Record<string, string>; want: WebhookVerdict }[] = [
  {
    name: 'A GitHub push with the right signature is a push.',
    given: { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sig}` },
    want: { type: 'push', provider: 'github' },
  },
  {
    name: 'A GitHub signature in upper-case hex is accepted.',
    given: { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sig.toUpperCase()}` },
    want: { type: 'push', provider: 'github' },
  },
  {
    name: 'A GitHub ping with the right signature is ignored.',
    given: { 'x-github-event': 'ping', 'x-hub-signature-256': `sha256=${sig}` },
    want: { type: 'ignored', provider: 'github', event: 'ping' },
  },
  {
    name: 'A GitHub push signed with another secret is forged.',
    given: { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${wrongSig}` },
    want: { type: 'forged', provider: 'github' },
  },
  {
    name: 'A GitHub push with only the SHA-1 signature counts as unsigned.',
    given: { 'x-github-event': 'push', 'x-hub-signature': `sha1=${sig.slice(0, 40)}` },
    want: { type: 'unsigned' },
  },
  {
    name: 'A GitHub signature without its sha256= prefix is forged.',
    given: { 'x-github-event': 'push', 'x-hub-signature-256': sig },
    want: { type: 'forged', provider: 'github' },
  },
  {
    name: 'A truncated signature is forged, not an error.',
    given: { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${sig.slice(0, 10)}` },
    want: { type: 'forged', provider: 'github' },
  },
  {
    name: 'A Gitea push with the right signature is a push even though it also carries GitHub headers.',
    given: { 'x-gitea-event': 'push', 'x-github-event': 'push', 'x-gitea-signature': sig },
    want: { type: 'push', provider: 'gitea' },
  },
  {
    name: 'A Gitea push with a GitHub signature but no Gitea one is unsigned.',
    given: { 'x-gitea-event': 'push', 'x-hub-signature-256': `sha256=${sig}` },
    want: { type: 'unsigned' },
  },
  {
    name: 'A Gitea push signed with another secret is forged.',
    given: { 'x-gitea-event': 'push', 'x-gitea-signature': wrongSig },
    want: { type: 'forged', provider: 'gitea' },
  },
  {
    name: 'A GitLab push hook with the right token is a push.',
    given: { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret },
    want: { type: 'push', provider: 'gitlab' },
  },
  {
    name: 'A GitLab tag push hook is verified but ignored.',
    given: { 'x-gitlab-event': 'Tag Push Hook', 'x-gitlab-token': secret },
    want: { type: 'ignored', provider: 'gitlab', event: 'Tag Push Hook' },
  },
  {
    name: 'A GitLab push hook with a wrong token of another length is forged.',
    given: { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'x' },
    want: { type: 'forged', provider: 'gitlab' },
  },
  {
    name: 'A GitLab push hook without a token is unsigned.',
    given: { 'x-gitlab-event': 'Push Hook' },
    want: { type: 'unsigned' },
  },
  {
    name: 'A request from no known provider is unsigned.',
    given: { 'content-type': 'application/json' },
    want: { type: 'unsigned' },
  },
];

for (const { name, given, want } of cases) {
  test(name, () =>
    assert.deepEqual(verifyWebhook({ headers: given, body: Buffer.from(body), secret }), want),
  );
}

const refs: { name: string; given: { body: string; contentType?: string }; want: string | undefined }[] = [
  { name: 'The ref of a JSON payload is read as a hint.', given: { body }, want: 'refs/heads/main' },
  {
    name: "The ref of GitHub's form-encoded payload is read as a hint.",
    given: { body: `payload=${encodeURIComponent(body)}`, contentType: 'application/x-www-form-urlencoded' },
    want: 'refs/heads/main',
  },
  { name: 'A payload that is not JSON gives no ref.', given: { body: 'not json' }, want: undefined },
  {
    name: 'A ref with a newline in it is not passed on, so it cannot forge log lines.',
    given: { body: JSON.stringify({ ref: 'refs/heads/x\nERROR fake' }) },
    want: undefined,
  },
];

for (const { name, given, want } of refs) {
  test(name, () => assert.equal(claimedRef(Buffer.from(given.body), given.contentType), want));
}
