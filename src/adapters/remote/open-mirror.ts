// The local bare mirror of a remote, one per URL under the cache directory, created with
// isomorphic-git's init. init writes several files one after the other, so it runs in a temp
// directory that is renamed into place: a crash never leaves a half-made mirror behind.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { fetchRefspecs, mirrorRemote } from './mirror-layout.js';

/** Returns the mirror's directory for a URL (without credentials): a readable name plus a hash of the URL. */
export function mirrorDirFor(cacheDir: string, url: string): string {
  const hash = createHash('sha256').update(url).digest('hex').slice(0, 16);
  const { host, pathname } = new URL(url);
  const name = `${host}${pathname}`.replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]+/g, '-');
  return join(cacheDir, `${name.slice(-60)}-${hash}.git`);
}

/** Creates the mirror if needed, sets its remote and refspecs, and returns its git directory. */
export async function openMirror(opts: { cacheDir: string; url: string }): Promise<string> {
  const gitdir = mirrorDirFor(opts.cacheDir, opts.url);
  if (!fs.existsSync(join(gitdir, 'config'))) await createMirror(opts.cacheDir, gitdir);
  await setConfigValues(gitdir, `remote.${mirrorRemote}.url`, [opts.url]);
  await setConfigValues(gitdir, `remote.${mirrorRemote}.fetch`, fetchRefspecs());
  return gitdir;
}

async function createMirror(cacheDir: string, gitdir: string): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  const temp = join(cacheDir, `.tmp-${randomBytes(6).toString('hex')}.git`);
  try {
    await git.init({ fs, dir: temp, bare: true, defaultBranch: 'main' });
    await rename(temp, gitdir);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    // Another process made the mirror first: use theirs.
    if (!fs.existsSync(join(gitdir, 'config'))) throw error;
  }
}

/** Makes the multi-valued key hold exactly these values, writing the config only when it differs. */
async function setConfigValues(gitdir: string, path: string, values: readonly string[]): Promise<void> {
  const current = (await git.getConfigAll({ fs, gitdir, path })).map(String);
  if (current.length === values.length && current.every((v, i) => v === values[i])) return;
  for (let i = 0; i < current.length; i++) await git.setConfig({ fs, gitdir, path, value: undefined });
  for (const [i, value] of values.entries()) await git.setConfig({ fs, gitdir, path, value, append: i > 0 });
}
