#!/usr/bin/env node
// `npm run example`: the hub's quick start on the bundled example fleet.
//
// 1. prepare out/example-repo, a local git repository holding examples/fleet-repo on main:
//    created on the first run; on later runs, a change to examples/fleet-repo is committed;
// 2. run the hub once over it: `gitfleet hub --repo out/example-repo --once`;
// 3. show the branches the hub wrote and the last render commits of one cluster.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const example = join(root, 'examples/fleet-repo');
// In the working directory: from a checkout (`npm run example`) that is the checkout; from an
// installed package (`node node_modules/gitfleet/scripts/example.js`), the user's directory.
const repo = join(process.cwd(), 'out/example-repo');
const shown = relative(process.cwd(), repo) || '.';
// A fixed identity for the example's own commits, whatever the user's git configuration says.
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'gitfleet example',
  GIT_AUTHOR_EMAIL: 'example@gitfleet.invalid',
  GIT_COMMITTER_NAME: 'gitfleet example',
  GIT_COMMITTER_EMAIL: 'example@gitfleet.invalid',
};
const git = (...args) => execFileSync('git', ['-C', repo, ...args], { env, encoding: 'utf8' }).trimEnd();

const fresh = !existsSync(join(repo, '.git'));
if (fresh) {
  mkdirSync(repo, { recursive: true });
  git('-c', 'init.defaultBranch=main', 'init', '-q');
}
// The work tree mirrors the example: what was removed there is removed here.
for (const entry of readdirSync(repo))
  if (entry !== '.git') rmSync(join(repo, entry), { recursive: true, force: true });
cpSync(example, repo, { recursive: true });
git('add', '-A');
if (git('status', '--porcelain') !== '') {
  git('commit', '-q', '-m', fresh ? 'the bundled example fleet' : 'update from examples/fleet-repo');
  console.log(
    `${shown}: committed ${fresh ? 'the example fleet' : 'the changes of examples/fleet-repo'} on main\n`,
  );
}

console.log(`$ gitfleet hub --repo ${shown} --once`);
const hub = spawnSync(process.execPath, [join(root, 'bin/gitfleet.js'), 'hub', '--repo', repo, '--once'], {
  stdio: 'inherit',
});

console.log(`\n$ git -C ${shown} branch --list 'gitfleet/*'`);
console.log(git('branch', '--list', 'gitfleet/*'));
console.log(`\n$ git -C ${shown} log --format='%h %s' -3 gitfleet/clusters/aws-eu-prod`);
console.log(git('log', '--format=%h %s', '-3', 'gitfleet/clusters/aws-eu-prod'));
console.log(
  `\nA manifest as aws-eu-prod runs it:\n  git -C ${shown} show gitfleet/clusters/aws-eu-prod:shop/Deployment.apps/web.yaml`,
);
process.exitCode = hub.status ?? 1;
