// The local bare mirror of a remote, one per URL (and purpose) under the cache directory,
// created with isomorphic-git's init. init writes several files one after the other, so it
// runs in a temp directory that is renamed into place: a crash never leaves a half-made mirror
// behind.
//
// A mirror holds the whole fleet, Secrets included, so the cache directory and each mirror are
// private to the user: made 0700, and tightened (with a warning) when found looser. With the
// directories closed, the files inside cannot be read by anyone else whatever their own mode.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { chmod, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { fetchRefspecs, incomingRemote, mirrorRemote } from './mirror-layout.js';

/** The mode of the cache directory and of every mirror. */
const privateDir = 0o700;

/**
 * Returns the mirror's directory for a URL (without credentials): a readable name plus a hash of
 * the URL and, when given, of a key (so an agent's mirror is never the hub's).
 */
export function mirrorDirFor(cacheDir: string, url: string, key?: string): string {
  const hash = createHash('sha256')
    .update(key === undefined ? url : `${url}\n${key}`)
    .digest('hex')
    .slice(0, 16);
  const { host, pathname } = new URL(url);
  const name = `${host}${pathname}`.replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]+/g, '-');
  return join(cacheDir, `${name.slice(-60)}-${hash}.git`);
}

export interface OpenMirrorOptions {
  cacheDir: string;
  url: string;
  /** Mixed into the directory's name (see mirrorDirFor). */
  key?: string | undefined;
  /** Receives a warning when a directory was found readable by others and tightened. */
  onWarning?: ((message: string) => void) | undefined;
}

/** Creates the mirror if needed, sets its remote and refspecs, and returns its git directory. */
export async function openMirror(opts: OpenMirrorOptions): Promise<string> {
  const gitdir = mirrorDirFor(opts.cacheDir, opts.url, opts.key);
  await mkdir(opts.cacheDir, { recursive: true, mode: privateDir });
  await makePrivate(opts.cacheDir, opts.onWarning);
  if (!fs.existsSync(join(gitdir, 'config'))) await createMirror(opts.cacheDir, gitdir);
  else await makePrivate(gitdir, opts.onWarning);
  await setConfigValues(gitdir, `remote.${mirrorRemote}.url`, [opts.url]);
  await setConfigValues(gitdir, `remote.${mirrorRemote}.fetch`, fetchRefspecs());
  await setConfigValues(gitdir, `remote.${incomingRemote}.fetch`, fetchRefspecs(incomingRemote));
  return gitdir;
}

/** Deletes the mirror (moved aside first, so a crash leaves no half-deleted mirror in place) and makes a new one. */
export async function rebuildMirror(opts: OpenMirrorOptions): Promise<string> {
  const gitdir = mirrorDirFor(opts.cacheDir, opts.url, opts.key);
  const aside = join(opts.cacheDir, `.trash-${randomBytes(6).toString('hex')}`);
  await rename(gitdir, aside).catch(() => undefined);
  await rm(aside, { recursive: true, force: true });
  return openMirror(opts);
}

/** Tightens a directory other users can read or enter to 0700, with a warning. */
async function makePrivate(dir: string, onWarning?: (message: string) => void): Promise<void> {
  const mode = (await stat(dir)).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  await chmod(dir, privateDir);
  onWarning?.(
    `${dir}: was mode ${mode.toString(8)}, readable by other users (the mirror holds the fleet, Secrets included); changed to 700`,
  );
}

async function createMirror(cacheDir: string, gitdir: string): Promise<void> {
  const temp = join(cacheDir, `.tmp-${randomBytes(6).toString('hex')}.git`);
  try {
    await mkdir(temp, { mode: privateDir });
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
