// The side repositories refreshed ahead (loops/hub/refresh-ahead.ts): a pass starts refreshing the
// status and render repositories the last pass read before the fleet repository's refresh is done,
// reads each of them once a pass, and reads a repository the fleet lists anew in the pass that
// lists it. Real repositories on disk; the refreshes recorded in the order they start and end.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localHubRepo, type HubRepo } from '../../../src/adapters/remote/hub-repo.js';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import { RenderRepositories } from '../../../src/loops/hub/render-repositories.js';
import { StatusRepositories } from '../../../src/loops/hub/status-repositories.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import {
  commitChange,
  fleetRepoWith,
  git,
  hubPass,
  rendered,
  removeFleetRepos,
  shopPolicy as policy,
  emptyBareRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

const bareRepo = emptyBareRepo;

const configMap = (value: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: shop\ndata:\n  a: "${value}"\n`;

const cluster = (name: string, render: string) =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n  labels:\n    gitfleet.io/status-repository: s\n    gitfleet.io/render-repository: ${render}\n`;

function fleetConfig(status: string, render: Record<string, string>): string {
  const listed = Object.entries(render).map(([name, url]) => `    - {name: ${name}, url: ${url}}\n`);
  return [
    'apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata:\n  name: fleet\nspec:\n',
    `  statusRepositories:\n    - {name: s, url: ${status}}\n`,
    `  renderRepositories:\n${listed.join('')}`,
  ].join('');
}

/** Opens repositories whose refreshes are logged (`name start`, `name end`). */
function logged(events: string[], name: (path: string) => string) {
  return (path: string): HubRepo => {
    const repo = localHubRepo(path);
    return {
      ...repo,
      refresh: async () => {
        events.push(`${name(path)} start`);
        await repo.refresh();
        events.push(`${name(path)} end`);
      },
    };
  };
}

test('a pass refreshes the side repositories the last pass read beside the fleet repository, each once, and a repository listed anew in the pass that lists it', async () => {
  const [s, a, b] = [bareRepo(), bareRepo(), bareRepo()];
  const names = new Map([
    [s, 'status s'],
    [a, 'render a'],
    [b, 'render b'],
  ]);
  const repo = fleetRepoWith(
    {
      'fleet.yaml': fleetConfig(s, { a }),
      'apps/shop.yaml': configMap('1'),
      'apps/policy.yaml': policy,
      'apps/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
      'clusters/member1.yaml': cluster('member1', 'a'),
      'clusters/member2.yaml': cluster('member2', 'a'),
    },
    { bare: true },
  );
  const events: string[] = [];
  const open = logged(events, (path) => names.get(path) ?? path);
  const fleetRepo = logged(events, () => 'fleet')(repo.path);
  const statusRepositories = new StatusRepositories({
    open,
    branchPrefix: () => 'gitfleet/',
    log: silentLogger(),
  });
  const renderRepositories = new RenderRepositories({ open, log: silentLogger() });
  const cache = createHubPassCache();
  const pass = () => hubPass(repo, { repo: fleetRepo, cache, statusRepositories, renderRepositories });

  rendered(await pass());
  assert.deepEqual(
    events.splice(0),
    ['fleet start', 'fleet end', 'status s start', 'status s end', 'render a start', 'render a end'],
    'the first pass of a process knows no side repository before it loads the fleet',
  );

  commitChange(repo, 'value 2', (work) => writeFileSync(join(work, 'apps/shop.yaml'), configMap('2')));
  rendered(await pass());
  const second = events.splice(0);
  assert.deepEqual(second.slice(0, 3), ['fleet start', 'status s start', 'render a start']);
  assert.deepEqual(
    [...second].sort(),
    ['fleet end', 'fleet start', 'render a end', 'render a start', 'status s end', 'status s start'],
    'each repository is read once',
  );

  commitChange(repo, 'member2 to render repository b', (work) => {
    writeFileSync(join(work, 'fleet.yaml'), fleetConfig(s, { a, b }));
    writeFileSync(join(work, 'clusters/member2.yaml'), cluster('member2', 'b'));
  });
  rendered(await pass());
  const third = events.splice(0);
  assert.deepEqual(
    [...third].sort(),
    [
      'fleet end',
      'fleet start',
      'render a end',
      'render a start',
      'render b end',
      'render b start',
      'status s end',
      'status s start',
    ],
    'b, listed anew, is read in this pass, and once',
  );
  assert.ok(
    third.indexOf('render b start') > third.indexOf('fleet end'),
    'b is read once the pass knows the fleet lists it',
  );
  const member2 = 'refs/heads/gitfleet/clusters/member2';
  assert.match(execFileSync('git', ['--git-dir', b, 'for-each-ref', member2]).toString(), /commit/);
  assert.ok(git(repo, ['show', 'gitfleet/bindings:.gitfleet/render-repositories/member2']).includes(b));
});
