import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMetricsAddr } from '../../src/cli/parse-metrics-addr.js';
import { UsageError } from '../../src/cli/usage-error.js';

const cases = [
  { name: 'a port alone binds 127.0.0.1', given: '9090', want: { host: '127.0.0.1', port: 9090 } },
  { name: 'an empty host binds 127.0.0.1', given: ':9090', want: { host: '127.0.0.1', port: 9090 } },
  { name: 'a host is kept', given: '0.0.0.0:8080', want: { host: '0.0.0.0', port: 8080 } },
  { name: 'a name is kept', given: 'localhost:0', want: { host: 'localhost', port: 0 } },
  { name: 'an IPv6 host loses its brackets', given: '[::]:9090', want: { host: '::', port: 9090 } },
];

for (const c of cases) {
  test(`--metrics-addr: ${c.name}`, () => assert.deepEqual(parseMetricsAddr(c.given), c.want));
}

for (const bad of ['', 'host', 'host:', ':99999', '::1:80', 'a:b:80', '0.0.0.0:-1']) {
  test(`--metrics-addr '${bad}' is a usage error naming the flag`, () => {
    assert.throws(
      () => parseMetricsAddr(bad),
      (error: unknown) =>
        error instanceof UsageError && /^--metrics-addr must be HOST:PORT/.test(error.message),
    );
  });
}
