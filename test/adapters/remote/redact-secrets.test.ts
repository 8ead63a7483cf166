import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets, redactUrl } from '../../../src/adapters/remote/redact-secrets.js';
import { parseRemoteUrl } from '../../../src/adapters/remote/parse-remote-url.js';
import { RemoteError } from '../../../src/adapters/remote/remote-error.js';

const urls: { name: string; given: string; want: string }[] = [
  {
    name: 'A URL with a user and password loses both.',
    given: 'https://x-access-token:ghp_abc123@github.com/org/fleet.git',
    want: 'https://***@github.com/org/fleet.git',
  },
  {
    name: 'A URL with only a user name loses it.',
    given: 'https://oauth2@gitlab.example.com/fleet',
    want: 'https://***@gitlab.example.com/fleet',
  },
  {
    name: 'A URL without credentials is unchanged.',
    given: 'http://127.0.0.1:8080/fleet.git',
    want: 'http://127.0.0.1:8080/fleet.git',
  },
  {
    name: 'Every URL inside a longer message is redacted.',
    given: 'fetch https://a:b@h1/x failed, then https://c:d@h2/y too',
    want: 'fetch https://***@h1/x failed, then https://***@h2/y too',
  },
  {
    name: 'An e-mail address in a message is not taken for a URL.',
    given: 'commit by hub@gitfleet.invalid',
    want: 'commit by hub@gitfleet.invalid',
  },
];

for (const { name, given, want } of urls) {
  test(name, () => assert.equal(redactUrl(given), want));
}

const texts: { name: string; given: { text: string; secrets: (string | undefined)[] }; want: string }[] = [
  {
    name: 'A known secret is masked wherever it appears.',
    given: { text: 'Authorization: Bearer s3cr3t-token (s3cr3t-token)', secrets: ['s3cr3t-token'] },
    want: 'Authorization: Bearer *** (***)',
  },
  {
    name: 'Secrets shorter than four characters are left alone so ordinary words survive.',
    given: { text: 'a push to main', secrets: ['a', undefined] },
    want: 'a push to main',
  },
  {
    name: 'URL credentials and known secrets are both masked in one message.',
    given: { text: 'https://u:p@host/r: token tok-123 refused', secrets: ['tok-123'] },
    want: 'https://***@host/r: token *** refused',
  },
];

for (const { name, given, want } of texts) {
  test(name, () => assert.equal(redactSecrets(given.text, given.secrets), want));
}

const parsed: { name: string; given: string; want: ReturnType<typeof parseRemoteUrl> | 'InvalidOption' }[] = [
  {
    name: 'Credentials are split from the URL, decoded, and the trailing slash dropped.',
    given: 'https://user:p%40ss@host.example/org/fleet.git/',
    want: { url: 'https://host.example/org/fleet.git', username: 'user', password: 'p@ss' },
  },
  {
    name: 'A URL without credentials comes back as it was.',
    given: 'http://127.0.0.1:9/fleet.git',
    want: { url: 'http://127.0.0.1:9/fleet.git' },
  },
  {
    name: 'An ssh URL is refused: only http(s) is supported.',
    given: 'ssh://git@host/fleet.git',
    want: 'InvalidOption',
  },
  { name: 'Something that is not a URL is refused.', given: 'not a url', want: 'InvalidOption' },
];

for (const { name, given, want } of parsed) {
  test(name, () => {
    if (want === 'InvalidOption') {
      assert.throws(
        () => parseRemoteUrl(given),
        (e: unknown) => e instanceof RemoteError && e.code === want && !e.message.includes('git@'),
      );
    } else assert.deepEqual(parseRemoteUrl(given), want);
  });
}
