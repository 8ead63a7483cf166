// The doorbell's tokens file (adapters/http/notify-tokens.ts): YAML or JSON, a token or the
// sha256 of one per cluster; a bad file is named, and no token value is ever in the message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isTokenOf,
  NotifyTokensError,
  parseNotifyTokens,
  tokenDigestForm,
} from '../../../src/adapters/http/notify-tokens.js';

test('a YAML map takes tokens and sha256 digests of tokens', () => {
  const tokens = parseNotifyTokens(`m1: one-token\nm2: ${tokenDigestForm('two-token')}\n`, 'tokens.yaml');
  assert.equal(isTokenOf(tokens, 'm1', 'one-token'), true);
  assert.equal(isTokenOf(tokens, 'm2', 'two-token'), true);
  assert.equal(isTokenOf(tokens, 'm2', tokenDigestForm('two-token')), false, 'the digest is not the token');
  assert.equal(isTokenOf(tokens, 'm1', 'two-token'), false);
  assert.equal(isTokenOf(tokens, 'm1', undefined), false);
  assert.equal(isTokenOf(tokens, 'm3', 'one-token'), false);
});

test('a JSON map reads the same', () => {
  const tokens = parseNotifyTokens('{"m1": "one-token"}', 'tokens.json');
  assert.equal(isTokenOf(tokens, 'm1', 'one-token'), true);
});

for (const { name, text, want } of [
  { name: 'a list', text: '- m1\n', want: /^tokens\.yaml: must be a map of cluster name to token$/ },
  {
    name: 'a number as token',
    text: 'm1: 12\n',
    want: /^tokens\.yaml: cluster m1: the token must be a non-empty string$/,
  },
  { name: 'broken YAML', text: 'm1: [one-token\n', want: /^tokens\.yaml: not YAML or JSON/ },
]) {
  test(`${name} is refused, naming the file and not the token`, () => {
    assert.throws(
      () => parseNotifyTokens(text, 'tokens.yaml'),
      (error: unknown) =>
        error instanceof NotifyTokensError &&
        want.test(error.message) &&
        !error.message.includes('one-token'),
    );
  });
}
