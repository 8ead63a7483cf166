// Free loopback ports for the test clusters' servers. A port the kernel picks (binding port 0)
// is one of its ephemeral ports, which it may hand out again as soon as it is closed: to another
// test's server, or as the local port of any outgoing connection. The unit tests run beside the
// clusters, so between picking a port and kube-apiserver binding it seconds later, another
// process could take it, and the server exits ("kube-apiserver exited", seen on a full run).
// The ports are therefore taken below the kernel's ephemeral range, which nothing is given
// unless it asks for that port, and each is checked free by binding it.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

function listenOn(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** The first port of the kernel's ephemeral range (Linux: /proc/sys/net/ipv4/ip_local_port_range). */
function ephemeralStart(): number {
  try {
    const first = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return Number.isInteger(first) && first > 2048 ? first : 32768;
  } catch {
    return 32768;
  }
}

/**
 * Returns `count` distinct ports below the ephemeral range that were free on 127.0.0.1 a moment
 * ago. All are held open until every one is picked, so none is returned twice.
 */
export async function freePorts(count: number): Promise<number[]> {
  const high = ephemeralStart();
  const low = Math.max(1024, high - 16_384);
  const servers: Server[] = [];
  try {
    for (let tries = 0; servers.length < count; tries++) {
      if (tries > 1000) throw new Error(`free-ports: no ${count} free ports in ${low}-${high - 1}`);
      const port = low + Math.floor(Math.random() * (high - low));
      const server = await listenOn(port);
      if (server) servers.push(server);
    }
    return servers.map((s) => (s.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}
