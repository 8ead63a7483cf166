// An upgraded agent's cache directory: the second fleet mirror agents kept until 6 December
// (`agent <cluster> fleet`) is removed at the agent's start; its current mirror and other
// clusters' mirrors of the same URL stay.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mirrorDirFor } from '../../src/adapters/remote/open-mirror.js';
import { removeRetiredMirrors } from '../../src/cli/commands/agent-remote-repo.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeTempDirs);

test('the retired second fleet mirror is removed; the agent’s own mirror and another cluster’s stay', async () => {
  const cacheDir = tempDir('mirror-cache');
  const url = 'https://git.example.test/acme/fleet.git';
  const dirs = {
    retired: mirrorDirFor(cacheDir, url, 'agent m1 fleet'),
    current: mirrorDirFor(cacheDir, url, 'agent m1'),
    otherCluster: mirrorDirFor(cacheDir, url, 'agent m2 fleet'),
  };
  for (const dir of Object.values(dirs)) {
    mkdirSync(join(dir, 'objects'), { recursive: true });
    writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  }
  await removeRetiredMirrors(cacheDir, url, 'm1');
  assert.equal(existsSync(dirs.retired), false);
  assert.equal(existsSync(dirs.current), true);
  assert.equal(existsSync(dirs.otherCluster), true, 'm2’s agent removes its own at its start');
  // Nothing there: nothing to do, no error.
  await removeRetiredMirrors(cacheDir, url, 'm1');
});
