// Reading a running process's health and metrics endpoint the way Prometheus and the kubelet do:
// plain HTTP GETs, the text format parsed into series → value.
import { request } from 'node:http';

/** Returns the status and body of GET `url`. */
export function httpGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Returns every sample of a scrape of `base`/metrics, keyed by series (`name{labels}`). */
export async function scrape(base: string): Promise<Map<string, number>> {
  const { status, body } = await httpGet(`${base}/metrics`);
  if (status !== 200) throw new Error(`${base}/metrics answered ${status}: ${body}`);
  const samples = new Map<string, number>();
  for (const line of body.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/** Returns the endpoint's base URL from a `serving /metrics, … on URL` log line (text or JSON). */
export function servedUrl(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const m = /serving \/metrics, \/healthz and \/readyz on (http:\/\/[^\s"]+)/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}
