// Kubernetes' CEL libraries (k8s.io/apiserver/pkg/cel/library), as kubernetes.io documents them
// ("Common Expression Language in Kubernetes"): lists, regex, URLs here; quantity and IP/CIDR in
// kube-cel-quantity.ts and kube-cel-net.ts. The strings extension and format come from
// @bufbuild/cel's own cel-go port. The authorizer library needs the API server: not offline.
import { RE2JS } from '@bufbuild/re2';
import { celMethod, CelScalar, listType, type CelFunc, type CelList } from '@bufbuild/cel';
import { kubeCelQuantity } from './kube-cel-quantity.js';
import { kubeCelNet } from './kube-cel-net.js';
import { kubeCelUrls } from './kube-cel-urls.js';

const { DYN, INT, BOOL, STRING } = CelScalar;
const anyList = listType(DYN);

/** Every function of Kubernetes' libraries gitfleet provides. */
export const kubeCelLibrary: readonly CelFunc[] = [
  ...listFunctions(),
  ...regexFunctions(),
  ...kubeCelUrls,
  ...kubeCelQuantity,
  ...kubeCelNet,
];

// lists: isSorted, sum, min, max, indexOf, lastIndexOf (library/lists.go).
function listFunctions(): CelFunc[] {
  return [
    celMethod('isSorted', anyList, [], BOOL, function () {
      const items = [...(this as CelList)];
      return items.every((v, i) => i === 0 || compare(items[i - 1], v) <= 0);
    }),
    celMethod('sum', anyList, [], DYN, function () {
      const items = [...(this as CelList)];
      if (items.length === 0) return 0n;
      return items.reduce((a, b) => add(a, b) as typeof a) as never;
    }),
    celMethod('min', anyList, [], DYN, function () {
      return extreme(this as CelList, -1) as never;
    }),
    celMethod('max', anyList, [], DYN, function () {
      return extreme(this as CelList, 1) as never;
    }),
    celMethod('indexOf', anyList, [DYN], INT, function (x) {
      return BigInt([...(this as CelList)].findIndex((v) => equal(v, x)));
    }),
    celMethod('lastIndexOf', anyList, [DYN], INT, function (x) {
      const items = [...(this as CelList)];
      for (let i = items.length - 1; i >= 0; i--) if (equal(items[i], x)) return BigInt(i);
      return -1n;
    }),
  ];
}

function extreme(list: CelList, sign: 1 | -1): unknown {
  const items = [...list];
  if (items.length === 0) throw new Error(`${sign > 0 ? 'max' : 'min'}(list) called on an empty list`);
  return items.reduce((best, v) => (compare(v, best) * sign > 0 ? v : best));
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' || typeof a === 'bigint') {
    if (typeof b !== 'number' && typeof b !== 'bigint') throw new Error('no such overload');
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  throw new Error('no such overload: the list elements are not comparable');
}

function add(a: unknown, b: unknown): unknown {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a + b;
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  throw new Error('no such overload: sum() of a list of mixed or non-numeric values');
}

function equal(a: unknown, b: unknown): boolean {
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint'))
    return a == b;
  return a === b;
}

// regex: find, findAll (library/regex.go). The pattern is checked as RE2 (what Kubernetes
// accepts); the match itself is JavaScript's, which agrees with RE2 on every pattern RE2 takes
// but inline flags, turned into RegExp flags here.
function regexFunctions(): CelFunc[] {
  return [
    celMethod('find', STRING, [STRING], STRING, function (pattern) {
      return regexOf(pattern).exec(this)?.[0] ?? '';
    }),
    celMethod('findAll', STRING, [STRING], listType(STRING), function (pattern) {
      return findAll(this, pattern, -1n);
    }),
    celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (pattern, n) {
      return findAll(this, pattern, n);
    }),
  ];
}

function findAll(text: string, pattern: string, n: bigint): string[] {
  if (n === 0n) return [];
  const re = regexOf(pattern, 'g');
  const found: string[] = [];
  for (const m of text.matchAll(re)) {
    found.push(m[0]);
    if (n > 0n && BigInt(found.length) >= n) break;
  }
  return found;
}

function regexOf(pattern: string, flags = ''): RegExp {
  RE2JS.compile(pattern);
  const inline = /^\(\?([imsU]+)\)/.exec(pattern);
  const extra = inline ? inline[1]!.replace(/U/g, '') : '';
  return new RegExp(inline ? pattern.slice(inline[0].length) : pattern, `${flags}${extra}u`);
}
