// Kubernetes' IP and CIDR libraries (library/ip.go, library/cidr.go): ip(), isIP(), cidr(),
// isCIDR() and their methods. As Kubernetes: IPv4 with leading zeros, IPv4-mapped IPv6 and zones
// are not IPs. An address is held as its canonical text (IPv6 compressed, lower case).
import { celFunc, celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { opaqueOf, opaqueType, opaqueValue } from './opaque-value.js';

const { STRING, BOOL, INT } = CelScalar;

interface Address {
  family: 4 | 6;
  value: bigint;
}

/** Returns an IP address parsed as Kubernetes' ip() parses it, or undefined. */
export function parseIp(text: string): Address | undefined {
  if (/^\d+(\.\d+){3}$/.test(text)) {
    const parts = text.split('.');
    if (parts.some((p) => (p.length > 1 && p.startsWith('0')) || Number(p) > 255)) return undefined;
    return { family: 4, value: parts.reduce((v, p) => (v << 8n) | BigInt(p), 0n) };
  }
  if (!/^[0-9a-fA-F:]+$/.test(text) || text.includes(':::')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (all.some((g) => g.length === 0 || g.length > 4)) return undefined;
  return { family: 6, value: all.reduce((v, g) => (v << 16n) | BigInt(`0x${g}`), 0n) };
}

/** Returns the canonical text of an address (RFC 5952 for IPv6). */
export function formatIp(a: Address): string {
  if (a.family === 4) return [24n, 16n, 8n, 0n].map((s) => String((a.value >> s) & 255n)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((a.value >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = { start: -1, length: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

function parseCidr(text: string): { ip: Address; prefix: number } | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(text);
  const ip = m ? parseIp(m[1]!) : undefined;
  if (!ip) return undefined;
  const prefix = Number(m![2]);
  return prefix <= bits(ip) ? { ip, prefix } : undefined;
}

const bits = (a: Address) => (a.family === 4 ? 32 : 128);
const ipOf = (value: unknown) => parseIp(opaqueOf('IP', value))!;
const cidrOf = (value: unknown) => parseCidr(opaqueOf('CIDR', value))!;

function masked(a: Address, prefix: number): Address {
  const width = BigInt(bits(a));
  const mask = ((1n << width) - 1n) ^ ((1n << (width - BigInt(prefix))) - 1n);
  return { family: a.family, value: a.value & mask };
}

function contains(net: { ip: Address; prefix: number }, ip: Address, prefix = bits(ip)): boolean {
  if (ip.family !== net.ip.family || prefix < net.prefix) return false;
  return masked(ip, net.prefix).value === masked(net.ip, net.prefix).value;
}

function strictIp(text: string): Address {
  const a = parseIp(text);
  if (!a) throw new Error(`IP Address "${text}" parse error during conversion from string`);
  return a;
}

const ipPredicate = (name: string, test: (a: Address) => boolean) =>
  celMethod(name, opaqueType, [], BOOL, function () {
    return test(ipOf(this));
  });

/** ip, isIP, family, isUnspecified, isLoopback, isGlobalUnicast…, cidr, isCIDR, containsIP, containsCIDR, prefixLength, masked. */
export const kubeCelNet: readonly CelFunc[] = [
  celFunc('ip', [STRING], opaqueType, (text) => opaqueValue('IP', formatIp(strictIp(text)))),
  celFunc('isIP', [STRING], BOOL, (text) => parseIp(text) !== undefined),
  celFunc('ip.isCanonical', [STRING], BOOL, (text) => formatIp(strictIp(text)) === text),
  celMethod('family', opaqueType, [], INT, function () {
    return BigInt(ipOf(this).family);
  }),
  ipPredicate('isUnspecified', (a) => a.value === 0n),
  ipPredicate('isLoopback', (a) => (a.family === 4 ? a.value >> 24n === 127n : a.value === 1n)),
  ipPredicate('isLinkLocalMulticast', (a) =>
    a.family === 4 ? a.value >> 8n === 0xe00000n : a.value >> 112n === 0xff02n,
  ),
  ipPredicate('isLinkLocalUnicast', (a) =>
    a.family === 4 ? a.value >> 16n === 0xa9fen : a.value >> 118n === 0x3fan,
  ),
  ipPredicate(
    'isGlobalUnicast',
    (a) =>
      a.value !== 0n &&
      !(a.family === 4
        ? a.value >> 24n === 127n ||
          a.value >> 28n === 0xen ||
          a.value === 0xffffffffn ||
          a.value >> 16n === 0xa9fen
        : a.value === 1n || a.value >> 120n === 0xffn || a.value >> 118n === 0x3fan),
  ),
  celFunc('cidr', [STRING], opaqueType, (text) => {
    const net = parseCidr(text);
    if (!net) throw new Error(`network address parse error during conversion from string: ${text}`);
    return opaqueValue('CIDR', `${formatIp(net.ip)}/${net.prefix}`);
  }),
  celFunc('isCIDR', [STRING], BOOL, (text) => parseCidr(text) !== undefined),
  celMethod('containsIP', opaqueType, [opaqueType], BOOL, function (ip) {
    return contains(cidrOf(this), ipOf(ip));
  }),
  celMethod('containsIP', opaqueType, [STRING], BOOL, function (ip) {
    return contains(cidrOf(this), strictIp(ip));
  }),
  celMethod('containsCIDR', opaqueType, [opaqueType], BOOL, function (other) {
    const inner = cidrOf(other);
    return contains(cidrOf(this), inner.ip, inner.prefix);
  }),
  celMethod('containsCIDR', opaqueType, [STRING], BOOL, function (other) {
    const inner = parseCidr(other);
    if (!inner) throw new Error(`network address parse error during conversion from string: ${other}`);
    return contains(cidrOf(this), inner.ip, inner.prefix);
  }),
  celMethod('prefixLength', opaqueType, [], INT, function () {
    return BigInt(cidrOf(this).prefix);
  }),
  celMethod('ip', opaqueType, [], opaqueType, function () {
    return opaqueValue('IP', formatIp(cidrOf(this).ip));
  }),
  celMethod('masked', opaqueType, [], opaqueType, function () {
    const net = cidrOf(this);
    return opaqueValue('CIDR', `${formatIp(masked(net.ip, net.prefix))}/${net.prefix}`);
  }),
];
