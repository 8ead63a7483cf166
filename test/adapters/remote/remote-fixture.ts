// A served repository with a fleet pushed to it by the git command line, and commits made in
// a hub's mirror with gitfleet's own object writer, for the remote adapter tests.
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildTreeFromScratch } from '../../../src/adapters/git/build-tree-from-scratch.js';
import { toGitObject } from '../../../src/adapters/git/hash-object.js';
import { makeCommit } from '../../../src/adapters/git/make-commit.js';
import { writeObjects } from '../../../src/adapters/git/write-objects.js';
import { remoteHubRepo, type RemoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import type { RemoteTimeouts } from '../../../src/adapters/remote/remote-timeouts.js';
import { agentMirrorRefs } from '../../../src/loops/agent/agent-repo.js';
import { git, makeServedRepo, tempDir } from '../../git-server/git-cli.js';
import { startGitServer, type GitServer } from '../../git-server/start-git-server.js';

export const hubAuthor = {
  name: 'gitfleet',
  email: 'hub@gitfleet.invalid',
  time: 1700000000,
  tzOffsetMinutes: 0,
};

/** A running server, the served repository's git dir, its URL, and a work tree that pushes to it. */
export interface ServedFleet {
  server: GitServer;
  served: string;
  url: string;
  work: string;
  cacheDir: string;
}

/** Starts a server and pushes main (one file) and the given extra branches to a new served repository. */
export async function serveFleet(opts: { token?: string; branches?: string[] } = {}): Promise<ServedFleet> {
  const root = tempDir('served');
  const served = makeServedRepo(root, 'fleet.git');
  const server = await startGitServer({ root, ...(opts.token === undefined ? {} : { token: opts.token }) });
  const url = server.url('fleet.git');
  const work = tempDir('work');
  await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  await commitWorkFile(work, 'apps/app.yaml', 'kind: ConfigMap\n', 'first');
  for (const branch of opts.branches ?? []) await git(work, ['branch', branch]);
  const auth = opts.token === undefined ? [] : ['-c', `http.extraHeader=Authorization: Bearer ${opts.token}`];
  await git(work, [...auth, 'push', '-q', url, 'main', ...(opts.branches ?? [])]);
  return { server, served, url, work, cacheDir: tempDir('cache') };
}

/** Writes one file in the work tree and commits it; returns the new commit id. */
export async function commitWorkFile(
  work: string,
  path: string,
  text: string,
  message: string,
): Promise<string> {
  mkdirSync(dirname(join(work, path)), { recursive: true });
  writeFileSync(join(work, path), text);
  await git(work, ['add', '.']);
  await git(work, ['commit', '-q', '-m', message]);
  return git(work, ['rev-parse', 'HEAD']);
}

/** Writes the files as a commit (blobs, trees, commit) into the git dir and returns its id. */
export async function commitInMirror(opts: {
  gitdir: string;
  files: Record<string, string>;
  parents: string[];
  message: string;
}): Promise<string> {
  const blobs = Object.entries(opts.files).map(([path, text]) => ({
    path,
    blob: toGitObject('blob', Buffer.from(text)),
  }));
  const tree = buildTreeFromScratch(new Map(blobs.map((b) => [b.path, b.blob.oid])));
  const commit = makeCommit({
    tree: tree.root,
    parents: opts.parents,
    author: hubAuthor,
    message: opts.message,
  });
  await writeObjects({
    gitdir: opts.gitdir,
    objects: [...blobs.map((b) => b.blob), ...tree.newObjects, commit],
  });
  return commit.oid;
}

/** Returns the mirror agent m1 works on (branch prefix `gitfleet/`), as `gitfleet agent` builds it: its own branches only. */
export function agentMirrorOf(opts: {
  url: string;
  cacheDir: string;
  timeouts?: RemoteTimeouts;
}): RemoteHubRepo {
  return remoteHubRepo({
    url: opts.url,
    cacheDir: opts.cacheDir,
    mirrorKey: 'agent m1',
    sourceRef: 'gitfleet/clusters/m1',
    branchPrefix: 'gitfleet/',
    onlyRefs: agentMirrorRefs('gitfleet/', 'm1'),
    ...(opts.timeouts === undefined ? {} : { timeouts: opts.timeouts }),
  });
}

/** Resolves to the ref's id in a git dir according to git, or null. */
export async function revParse(gitdir: string, ref: string): Promise<string | null> {
  return git(gitdir, ['rev-parse', '--verify', '--quiet', ref]).catch(() => null);
}

/** Runs `body` on a fleet served over HTTP and a hub repository of it; the server stops after. */
export async function withServedHub(
  opts: { branchPrefix: string; branches?: string[] },
  body: (fleet: ServedFleet, hub: RemoteHubRepo) => Promise<void>,
): Promise<void> {
  const fleet = await serveFleet(opts.branches ? { branches: opts.branches } : {});
  try {
    const hub = remoteHubRepo({
      url: fleet.url,
      cacheDir: fleet.cacheDir,
      sourceRef: 'main',
      branchPrefix: opts.branchPrefix,
    });
    await body(fleet, hub);
  } finally {
    await fleet.server.close();
  }
}

/** Another writer: clones `branch` from the server, commits a file on it and pushes; returns their commit. */
export async function pushedByAnother(fleet: ServedFleet, branch: string, text: string): Promise<string> {
  const other = tempDir('other');
  await git(other, ['clone', '-q', '--branch', branch, fleet.url, '.']);
  const theirs = await commitWorkFile(other, 'a.yaml', text, 'not the hub');
  await git(other, ['push', '-q', 'origin', `HEAD:refs/heads/${branch}`]);
  return theirs;
}
