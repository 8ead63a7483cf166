// Free loopback ports, found by letting the kernel pick (binding port 0).
import { createServer, type Server } from 'node:net';

function listenOnAnyPort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/**
 * Returns `count` distinct ports that were free on 127.0.0.1 a moment ago. All are held open
 * until every one is picked, so the kernel never hands out the same port twice.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listenOnAnyPort());
    return servers.map((s) => {
      const address = s.address();
      if (address === null || typeof address === 'string') throw new Error('free-ports: no TCP address');
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}
