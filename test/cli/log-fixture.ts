// The repository the gitfleet log tests read: cluster branches built with git's plumbing (a
// temporary index, write-tree, commit-tree, update-ref) in the documented format: one file per
// object, `render <sha7>: <subject>` messages with a change list and the Gitfleet-Source-*
// trailers. Objects are loose, so a test can take one away.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { initRepo, tempDir, writeFiles } from '../adapters/source/git-fixture.js';

export const T0 = Date.UTC(2024, 0, 1) / 1000;

/** Runs git in `repo` (stdin from `input`); returns its trimmed output. */
export function run(repo: string, args: string[], env: Record<string, string> = {}, input?: string): string {
  return execFileSync('git', ['-C', repo, ...args], {
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...env },
    encoding: 'utf8',
    ...(input !== undefined ? { input } : {}),
  }).trim();
}

function who(name: string, time: number): Record<string, string> {
  const email = `${name.toLowerCase()}@example.com`;
  const date = `@${time} +0000`;
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
    GIT_COMMITTER_DATE: date,
  };
}

/** Commits on the source branch main as `author`; returns the commit id. */
export function sourceCommit(
  repo: string,
  files: Record<string, string>,
  subject: string,
  author: string,
  time: number,
): string {
  writeFiles(repo, files);
  run(repo, ['add', '-A']);
  run(repo, ['commit', '-q', '--allow-empty', '-m', subject], who(author, time));
  return run(repo, ['rev-parse', 'HEAD']);
}

export type Tree = Record<string, string>;

/** Commits `tree` on refs/heads/gitfleet/clusters/<cluster> as the hub would; returns the commit id. */
export function renderCommit(input: {
  repo: string;
  cluster: string;
  tree: Tree;
  source: string;
  subject: string;
  time: number;
  body: string[];
}): string {
  const { repo } = input;
  const ref = `refs/heads/gitfleet/clusters/${input.cluster}`;
  const index = join(tempDir('index'), 'index');
  for (const [path, content] of Object.entries(input.tree)) {
    const blob = run(repo, ['hash-object', '-w', '--stdin'], {}, content);
    run(repo, ['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { GIT_INDEX_FILE: index });
  }
  const tree = run(repo, ['write-tree'], { GIT_INDEX_FILE: index });
  const parent = (() => {
    try {
      return ['-p', run(repo, ['rev-parse', '--verify', '-q', ref])];
    } catch {
      return [];
    }
  })();
  const message = [
    `render ${input.source.slice(0, 7)}: ${input.subject}`,
    '',
    ...input.body,
    '',
    `Gitfleet-Source-Commit: ${input.source}`,
    'Gitfleet-Source-Ref: refs/heads/main',
    '',
  ].join('\n');
  const commit = run(repo, ['commit-tree', tree, ...parent], who('gitfleet hub', input.time), message);
  run(repo, ['update-ref', ref, commit]);
  return commit;
}

export const web1 = 'kind: Deployment\nspec:\n  replicas: 1\n';
export const web2 = 'kind: Deployment\nspec:\n  replicas: 2\n';
export const ns = 'kind: Namespace\n';
export const cm1 = 'kind: ConfigMap\ndata: {a: "1"}\n';
export const cm2 = 'kind: ConfigMap\ndata: {a: "2"}\n';
export const WEB = 'shop/Deployment.apps/web.yaml';
export const CM = 'shop/ConfigMap/web-config.yaml';
export const NS = '_cluster/Namespace/shop.yaml';

// Source: S1 add web (Alice), S2 scale web (Bob), S3 remove web (Carol).
// member1: M1 adds web+cm+ns (S1), M2 changes web (S2), M3 removes web (S3).
// member2: N1 adds web+cm (S1), N2 changes only the ConfigMap (S2), N3 changes web from a source
// commit this repository does not have.
/** A repository with two cluster branches of three render commits each (ids named below). */
export interface LogFixture {
  repo: string;
  ids: Record<string, string>;
}

/** Builds the repository: the history described above. */
export function logFixture(): LogFixture {
  const repo = initRepo();
  const ids: Record<string, string> = {};
  ids.s1 = sourceCommit(repo, { 'apps/web.yaml': '# web\n' }, 'add web', 'Alice', T0 + 100);
  ids.s2 = sourceCommit(repo, { 'apps/web.yaml': '# web x2\n' }, 'scale web', 'Bob', T0 + 300);
  ids.s3 = sourceCommit(repo, { 'apps/web.yaml': '# gone\n' }, 'remove web', 'Carol', T0 + 500);
  const gone = 'f'.repeat(40);
  const c = (cluster: string, tree: Tree, source: string, subject: string, time: number, body: string[]) =>
    renderCommit({ repo, cluster, tree, source, subject, time, body });
  ids.m1 = c('member1', { [WEB]: web1, [CM]: cm1, [NS]: ns }, ids.s1, 'add web', T0 + 200, [
    '_cluster/Namespace/shop: added',
    'shop/ConfigMap/web-config: added',
    'shop/Deployment.apps/web: added',
  ]);
  ids.n1 = c('member2', { [WEB]: web1, [CM]: cm1 }, ids.s1, 'add web', T0 + 230, [
    'shop/Deployment.apps/web: added',
  ]);
  ids.m2 = c('member1', { [WEB]: web2, [CM]: cm1, [NS]: ns }, ids.s2, 'scale web', T0 + 400, [
    'shop/Deployment.apps/web: changed',
  ]);
  ids.n2 = c('member2', { [WEB]: web1, [CM]: cm2 }, ids.s2, 'scale web', T0 + 430, [
    'shop/ConfigMap/web-config: changed',
  ]);
  ids.m3 = c('member1', { [CM]: cm1, [NS]: ns }, ids.s3, 'remove web', T0 + 600, [
    'shop/Deployment.apps/web: removed',
  ]);
  ids.n3 = c('member2', { [WEB]: web2, [CM]: cm2 }, gone, 'rewritten', T0 + 700, [
    'shop/Deployment.apps/web: changed',
  ]);
  return { repo, ids };
}
