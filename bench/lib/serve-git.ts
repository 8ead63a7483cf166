// git's own smart-HTTP server (test/git-server/start-git-server.ts) in a process of its own, so
// that a benchmark's CPU figures are its own and not the server's (bench/hub-push-pass.ts
// --served). Prints the server's base URL on its first line; stops on SIGTERM.
//
//   node build/bench/lib/serve-git.js <root>
import { startGitServer } from '../../test/git-server/start-git-server.js';

const root = process.argv[2];
if (root === undefined) throw new Error('usage: serve-git.js <root>');
const server = await startGitServer({ root });
process.stdout.write(`${server.url('')}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
