// The hub fixture, plus a fleet rendered once and then changed (the api's image), so that the
// next pass moves every cluster branch that runs the api and the bindings branch.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitChange, exampleFleetRepo, hubPass, type FleetRepo } from '../loops/hub/hub-fixture.js';

export * from '../loops/hub/hub-fixture.js';

/** Returns a bare fleet repository rendered once and then changed on main. */
export async function changedFleet(): Promise<FleetRepo> {
  const repo = exampleFleetRepo({ bare: true });
  await hubPass(repo);
  commitChange(repo, 'api 9.9.9', (work) => {
    const file = join(work, 'apps/shop/api.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/image: (\S+):(\S+)/, 'image: $1:9.9.9'));
  });
  return repo;
}
