// An agent's mirror refreshing in a process of its own, for the test that kills it:
// `node agent-refresh-child.js <url> <cacheDir>` prints `ready`, then refreshes again and again
// (printing `refreshed`) until the test's SIGKILL lands somewhere inside one.
import { remoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { agentMirrorRefs } from '../../../src/loops/agent/agent-repo.js';

const [url = '', cacheDir = ''] = process.argv.slice(2);
const agent = remoteHubRepo({
  url,
  cacheDir,
  mirrorKey: 'agent m1',
  sourceRef: 'gitfleet/clusters/m1',
  branchPrefix: 'gitfleet/',
  onlyRefs: agentMirrorRefs('gitfleet/', 'm1'),
});
process.stdout.write('ready\n');
for (;;) {
  await agent.refresh();
  process.stdout.write('refreshed\n');
}
