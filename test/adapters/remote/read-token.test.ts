import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readToken, type TokenSource } from '../../../src/adapters/remote/read-token.js';
import { RemoteError } from '../../../src/adapters/remote/remote-error.js';
import { removeTempDirs, tempDir } from '../../git-server/git-cli.js';

after(removeTempDirs);

/** Writes the text to a new file and returns its path. */
function tokenFile(text: string): string {
  const path = join(tempDir('token'), 'token');
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

const cases: { name: string; given: () => TokenSource; want: string | undefined | 'BadToken' }[] = [
  {
    name: 'The token comes from GITFLEET_GIT_TOKEN by default.',
    given: () => ({ env: { GITFLEET_GIT_TOKEN: 'from-env' } }),
    want: 'from-env',
  },
  {
    name: 'A named variable is read instead of the default one.',
    given: () => ({ env: { GITFLEET_GIT_TOKEN: 'default', HUB_TOKEN: 'named' }, variable: 'HUB_TOKEN' }),
    want: 'named',
  },
  {
    name: 'A token file wins over the environment and loses its trailing newline.',
    given: () => ({ env: { GITFLEET_GIT_TOKEN: 'from-env' }, file: tokenFile('from-file\n') }),
    want: 'from-file',
  },
  { name: 'No file and no variable give no token.', given: () => ({ env: {} }), want: undefined },
  {
    name: 'An empty variable gives no token.',
    given: () => ({ env: { GITFLEET_GIT_TOKEN: '' } }),
    want: undefined,
  },
  {
    name: 'An empty token file is an error.',
    given: () => ({ env: {}, file: tokenFile('\n') }),
    want: 'BadToken',
  },
  {
    name: 'A token file holding two lines is an error, not a header injection.',
    given: () => ({ env: {}, file: tokenFile('abc\nX-Evil: 1\n') }),
    want: 'BadToken',
  },
  {
    name: 'A token file that does not exist is an error naming the file.',
    given: () => ({ env: {}, file: '/nonexistent/gitfleet/token' }),
    want: 'BadToken',
  },
];

for (const { name, given, want } of cases) {
  test(name, async () => {
    const source = given();
    if (want === 'BadToken') {
      await assert.rejects(readToken(source), (e: unknown) => {
        assert.ok(e instanceof RemoteError && e.code === 'BadToken');
        assert.ok(!e.message.includes('X-Evil') && !e.message.includes('abc'), e.message);
        return true;
      });
    } else assert.equal(await readToken(source), want);
  });
}
