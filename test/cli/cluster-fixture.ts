// A fleet repository for the `gitfleet cluster join` and `leave` tests: a work tree on `main`
// with one registered cluster and an origin URL, plus the hub's public keys to give agents.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { runGit } from '../support/run-git.js';
import { tempDir } from '../support/temp-dirs.js';
import { madeKey, type MadeKey } from '../support/signing-keys.js';
import { clusterSigningKeyOf } from '../../src/core/model/cluster-signing-key.js';

export interface FleetClone {
  dir: string;
  git: (...args: string[]) => string;
  /** The hub's key, and the allowed_signers file of its public half (`--hub-keys`). */
  hub: MadeKey;
  hubKeys: string;
}

/** Returns a fleet repository whose `main` registers `member1` (and the other files given). */
export async function fleetClone(files: Record<string, string> = {}): Promise<FleetClone> {
  const dir = tempDir('fleet');
  const git = (...args: string[]) => runGit(args, { cwd: dir });
  git('init', '-q', '-b', 'main');
  git('config', 'remote.origin.url', 'https://git.example.org/platform/fleet.git');
  const all = {
    'clusters/member1.yaml':
      'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member1\nspec:\n  syncMode: Pull\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'fleet');
  const hub = await madeKey('gitfleet-hub');
  const hubKeys = join(tempDir('hubkeys'), 'hub.allowed_signers');
  writeFileSync(hubKeys, `${hub.allowed('gitfleet-hub')}\n`);
  return { dir, git, hub, hubKeys };
}

/** Returns the public key line the registration at `path` of `rev` names. */
export function registeredKey(clone: FleetClone, rev: string, path: string): string {
  const docs = yaml.loadAll(clone.git('show', `${rev}:${path}`));
  const key = docs.map((d) => clusterSigningKeyOf(d)).find((k) => k !== undefined);
  if (key === undefined) throw new Error(`${rev}:${path}: no signing key annotation`);
  return key;
}

/** The author flag every test passes (no user configuration in tests). */
export const author = ['--author', 'Pat Operator <pat@example.com>'];
