// `--metrics-addr HOST:PORT`: where the health and metrics endpoint listens. The host may be
// left out (`:9090` or `9090`: 127.0.0.1, reachable only from the machine or the Pod); a Pod
// behind a Service or a scraper says `0.0.0.0:9090`. IPv6 hosts go in brackets (`[::]:9090`).
import { escapeText } from '../core/model/quote-text.js';
import { UsageError } from './usage-error.js';

/** Returns the host and port of `text`, or throws a usage error naming the flag. */
export function parseMetricsAddr(text: string): { host: string; port: number } {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]*):)?(\d+)$/.exec(text.trim());
  const port = Number(m?.[2]);
  if (!m || !Number.isInteger(port) || port > 65535) {
    throw new UsageError(
      `--metrics-addr must be HOST:PORT, :PORT or PORT (e.g. 0.0.0.0:9090), not '${escapeText(text)}'`,
    );
  }
  const host = (m[1] ?? '').replace(/^\[(.*)\]$/, '$1');
  return { host: host === '' ? '127.0.0.1' : host, port };
}
