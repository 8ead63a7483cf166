// An agent's mirror refreshing in a process of its own, for the test that kills it:
// `node agent-refresh-child.js <url> <cacheDir>` prints `ready`, then refreshes again and again
// (printing `refreshed`) until the test's SIGKILL lands somewhere inside one.
import { agentMirrorOf } from './remote-fixture.js';

const [url = '', cacheDir = ''] = process.argv.slice(2);
const agent = agentMirrorOf({ url, cacheDir });
process.stdout.write('ready\n');
for (;;) {
  await agent.refresh();
  process.stdout.write('refreshed\n');
}
