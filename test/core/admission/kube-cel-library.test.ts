// Kubernetes' CEL libraries, each case taken from their documented behaviour (kubernetes.io,
// "Common Expression Language in Kubernetes": the lists, strings, format, regex, URL, IP/CIDR and
// quantity library tables and their examples), run through the same compiler the policies use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CostMeter } from '../../../src/core/admission/cel-cost.js';
import { compileExpression } from '../../../src/core/admission/compile-expression.js';

function run(expression: string, vars: Record<string, unknown> = {}): unknown {
  const compiled = compileExpression(expression);
  assert.ok(compiled.ok, compiled.ok ? '' : compiled.error);
  const meter = new CostMeter();
  meter.startExpression(Infinity);
  const result = compiled.run(vars as never, meter);
  return result.ok ? result.value : `error: ${result.error}`;
}

const cases: { name: string; given: string; want: unknown }[] = [
  // lists
  { name: 'isSorted on a sorted list', given: "['a', 'b', 'c'].isSorted()", want: true },
  { name: 'isSorted on an unsorted list', given: '[2, 1].isSorted()', want: false },
  { name: 'sum of weights', given: '[0.5, 0.25, 0.25].sum() == 1.0', want: true },
  { name: 'sum of ints', given: '[1, 2, 3].sum()', want: 6n },
  { name: 'max below min', given: '[1, 2].max() < [3, 4].min()', want: true },
  { name: 'indexOf', given: "['a', 'should-be-first', 'b'].indexOf('should-be-first')", want: 1n },
  { name: 'lastIndexOf', given: '[1, 2, 1].lastIndexOf(1)', want: 2n },
  { name: 'min of an empty list is an error', given: '[].min()', want: /^error: .*empty list/ },
  // strings and format (cel-go's strings extension)
  { name: 'upperAscii', given: "'hello'.upperAscii()", want: 'HELLO' },
  { name: 'split', given: "'a,b,c'.split(',')", want: ['a', 'b', 'c'] },
  {
    name: 'substring and indexOf',
    given: "'kubernetes'.substring(4, 'kubernetes'.indexOf('e', 4) + 1)",
    want: 'rne',
  },
  { name: 'join', given: "['a', 'b'].join('-')", want: 'a-b' },
  { name: 'format', given: "'%s has %d replicas'.format(['web', 3])", want: 'web has 3 replicas' },
  // regex
  { name: 'find', given: "'abc 123'.find('[0-9]+')", want: '123' },
  { name: 'find with no match', given: "'abc'.find('[0-9]+')", want: '' },
  { name: 'findAll and sum', given: "'1, 2, 3, 4'.findAll('[0-9]+').map(x, int(x)).sum() < 100", want: true },
  { name: 'findAll with a limit', given: "'1, 2, 3'.findAll('[0-9]+', 2)", want: ['1', '2'] },
  { name: 'find takes only RE2 syntax', given: "'aa'.find('(a)\\\\1')", want: /^error: / },
  // URLs
  { name: 'isURL', given: "isURL('https://example.com/path')", want: true },
  { name: 'isURL of a relative path', given: "isURL('../relative')", want: false },
  {
    name: 'getHost with its port',
    given: "url('https://example.com:80/').getHost()",
    want: 'example.com:80',
  },
  { name: 'getHostname', given: "url('https://example.com:80/').getHostname()", want: 'example.com' },
  { name: 'getPort', given: "url('https://example.com:8080/').getPort()", want: '8080' },
  { name: 'getScheme', given: "url('https://example.com/').getScheme()", want: 'https' },
  { name: 'getHostname of an IPv6 host', given: "url('https://[::1]:80/').getHostname()", want: '::1' },
  {
    name: 'getEscapedPath',
    given: "url('https://example.com/path with spaces/').getEscapedPath()",
    want: '/path%20with%20spaces/',
  },
  { name: 'getQuery', given: "url('https://example.com/?k=a&k=b').getQuery()['k']", want: ['a', 'b'] },
  // IP and CIDR
  { name: 'isIP', given: "isIP('127.0.0.1')", want: true },
  { name: 'isIP refuses leading zeros', given: "isIP('127.000.0.1')", want: false },
  { name: 'family', given: "ip('127.0.0.1').family()", want: 4n },
  { name: 'isLoopback of ::1', given: "ip('::1').isLoopback()", want: true },
  { name: 'isUnspecified', given: "ip('0.0.0.0').isUnspecified()", want: true },
  { name: 'isGlobalUnicast', given: "ip('192.168.0.1').isGlobalUnicast()", want: true },
  { name: 'ip.isCanonical', given: "ip.isCanonical('2001:db8::abcd')", want: true },
  { name: 'ip.isCanonical of a long form', given: "ip.isCanonical('2001:DB8:0:0:0:0:0:ABCD')", want: false },
  { name: 'IPv6 compares canonically', given: "ip('2001:DB8::1') == ip('2001:db8:0::1')", want: true },
  { name: 'containsIP', given: "cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))", want: true },
  { name: 'containsIP of a string', given: "cidr('192.168.0.0/24').containsIP('192.168.1.1')", want: false },
  { name: 'containsCIDR', given: "cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))", want: true },
  { name: 'prefixLength', given: "cidr('192.168.0.0/24').prefixLength()", want: 24n },
  { name: 'masked', given: "cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')", want: true },
  { name: 'cidr ip', given: "cidr('192.168.0.1/24').ip() == ip('192.168.0.1')", want: true },
  { name: 'isCIDR of a too long prefix', given: "isCIDR('10.0.0.0/33')", want: false },
  // quantity
  { name: 'isQuantity', given: "isQuantity('1.5G')", want: true },
  { name: 'isQuantity of a bad unit', given: "isQuantity('1.5Gb')", want: false },
  { name: 'isInteger', given: "quantity('500000G').isInteger()", want: true },
  { name: 'isInteger of a fraction', given: "quantity('1500m').isInteger()", want: false },
  { name: 'asInteger', given: "quantity('50k').asInteger()", want: 50000n },
  { name: 'asApproximateFloat', given: "quantity('1.5Gi').asApproximateFloat()", want: 1610612736 },
  { name: 'add an int', given: "quantity('50k').add(20) == quantity('50020')", want: true },
  { name: 'sub a quantity', given: "quantity('50k').sub(quantity('20k')) == quantity('30k')", want: true },
  { name: 'compareTo of equal amounts', given: "quantity('200M').compareTo(quantity('0.2G'))", want: 0n },
  { name: 'equal amounts are equal', given: "quantity('1') == quantity('1000m')", want: true },
  {
    name: 'isGreaterThan across units',
    given: "quantity('150Mi').isGreaterThan(quantity('100Mi'))",
    want: true,
  },
  { name: 'isLessThan', given: "quantity('50M').isLessThan(quantity('100M'))", want: true },
  { name: 'binary and decimal', given: "quantity('1Ki').compareTo(quantity('1k'))", want: 1n },
  { name: 'sign of a negative', given: "quantity('-1m').sign()", want: -1n },
  { name: 'not a quantity', given: "quantity('one')", want: /^error: quantities must match/ },
];

for (const c of cases) {
  test(`CEL library: ${c.name}: ${c.given}`, () => {
    const got = run(c.given);
    if (c.want instanceof RegExp) assert.match(String(got), c.want);
    else if (Array.isArray(c.want)) assert.deepEqual([...(got as Iterable<unknown>)], c.want);
    else assert.equal(got, c.want);
  });
}

test('CEL sees JSON integers as int and other numbers as double, as Kubernetes does', () => {
  assert.equal(run('object.spec.replicas / 2', { object: { spec: { replicas: 5n } } }), 2n);
  assert.equal(run('type(object.ratio) == double', { object: { ratio: 0.5 } }), true);
});
