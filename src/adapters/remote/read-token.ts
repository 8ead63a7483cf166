// The token for a remote repository comes from a file (`--token-file`) or an environment
// variable (default GITFLEET_GIT_TOKEN), never from the command line, where `ps` and shell
// history would show it. The file wins when both are given: a flag beats the ambient env.
import { readFile } from 'node:fs/promises';
import { RemoteError } from './remote-error.js';

/** The environment variable read when none is named. */
export const defaultTokenVariable = 'GITFLEET_GIT_TOKEN';

export interface TokenSource {
  /** The process environment, passed in (adapters read no globals). */
  env: Readonly<Record<string, string | undefined>>;
  /** The variable to read; default GITFLEET_GIT_TOKEN. */
  variable?: string;
  /** A file holding the token; surrounding whitespace and the final newline are dropped. */
  file?: string;
}

/** Returns the token from the file or the environment, or undefined when neither gives one. */
export async function readToken(source: TokenSource): Promise<string | undefined> {
  if (source.file !== undefined) {
    let text: string;
    try {
      text = await readFile(source.file, 'utf8');
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new RemoteError('BadToken', `${source.file}: cannot read the token file (${why})`);
    }
    return checkToken(text.trim(), `the token file ${source.file}`);
  }
  const variable = source.variable ?? defaultTokenVariable;
  const value = source.env[variable]?.trim();
  return value === undefined || value === '' ? undefined : checkToken(value, `$${variable}`);
}

/** A token goes into an HTTP header: it must be one non-empty line of visible characters. */
function checkToken(token: string, origin: string): string {
  if (token === '') throw new RemoteError('BadToken', `${origin}: empty`);
  if ([...token].some((c) => c <= ' ' || c === '\x7f')) {
    throw new RemoteError(
      'BadToken',
      `${origin}: holds whitespace or control characters; expected one token`,
    );
  }
  return token;
}
