import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forgeOfRepo } from '../../../src/core/budget/forge-budget.js';

const cases = [
  { repo: 'https://github.com/acme/fleet.git', want: 'github' },
  { repo: 'https://x-access-token@github.com/acme/fleet', want: 'github' },
  { repo: 'https://GitHub.com/acme/fleet', want: 'github' },
  { repo: 'https://gitlab.com/acme/fleet.git', want: 'gitlab' },
  { repo: 'https://gitlab.example.org/acme/fleet.git', want: 'gitlab' },
  { repo: 'http://127.0.0.1:8080/fleet.git', want: 'generic' },
  { repo: 'https://git.example.org/fleet.git', want: 'generic' },
  { repo: '/srv/git/fleet.git', want: 'generic' },
  { repo: './github.com/fleet', want: 'generic' },
  { repo: 'https://notgithub.com/fleet', want: 'generic' },
] as const;

for (const c of cases) {
  test(`The forge of ${c.repo} is ${c.want}.`, () => assert.equal(forgeOfRepo(c.repo), c.want));
}
