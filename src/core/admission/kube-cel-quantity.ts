// Kubernetes' quantity library (library/quantity.go): quantity(), isQuantity() and the arithmetic
// and comparisons of resource.Quantity. A quantity is held as an exact count of nano-units
// (10⁻⁹, the smallest unit Kubernetes keeps; finer fractions round up, as Kubernetes rounds).
import { celFunc, celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { opaqueOf, opaqueType, opaqueValue } from './opaque-value.js';

const { STRING, BOOL, INT, DOUBLE } = CelScalar;
const nano = 1_000_000_000n;
const decimal: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binary: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const maxInt64 = (1n << 63n) - 1n;

/** Returns the amount of a Kubernetes quantity in nano-units, or undefined when it is not one. */
export function parseQuantity(text: string): bigint | undefined {
  const m = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:([numkMGTPE]|[KMGTPE]i)?|[eE]([+-]?\d+))$/.exec(text);
  if (!m) return undefined;
  const [, sign, number, suffix, exponent] = m;
  const [whole, fraction = ''] = number!.split('.');
  let digits = BigInt(`${whole || '0'}${fraction}`);
  let scale = -fraction.length;
  let factor = 1n;
  if (exponent !== undefined) scale += Number(exponent);
  else if (suffix && suffix in binary) factor = 1n << BigInt(binary[suffix]!);
  else scale += decimal[suffix ?? '']!;
  if (scale > 40) return undefined;
  digits *= factor * nano;
  const amount = scale >= 0 ? digits * 10n ** BigInt(scale) : ceilDiv(digits, 10n ** BigInt(-scale));
  return sign === '-' ? -amount : amount;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

const amountOf = (value: unknown) => BigInt(opaqueOf('Quantity', value));
const quantityOf = (amount: bigint) => opaqueValue('Quantity', amount.toString());

/** quantity, isQuantity, sign, isInteger, asInteger, asApproximateFloat, add, sub, compareTo, isLessThan, isGreaterThan. */
export const kubeCelQuantity: readonly CelFunc[] = [
  celFunc('quantity', [STRING], opaqueType, (text) => {
    const amount = parseQuantity(text);
    if (amount === undefined) throw new Error(`quantities must match the regular expression: ${text}`);
    return quantityOf(amount);
  }),
  celFunc('isQuantity', [STRING], BOOL, (text) => parseQuantity(text) !== undefined),
  celMethod('sign', opaqueType, [], INT, function () {
    const a = amountOf(this);
    return a > 0n ? 1n : a < 0n ? -1n : 0n;
  }),
  celMethod('isInteger', opaqueType, [], BOOL, function () {
    const a = amountOf(this);
    return a % nano === 0n && a / nano <= maxInt64 && a / nano >= -maxInt64 - 1n;
  }),
  celMethod('asInteger', opaqueType, [], INT, function () {
    const a = amountOf(this);
    if (a % nano !== 0n || a / nano > maxInt64 || a / nano < -maxInt64 - 1n)
      throw new Error('cannot convert value to integer');
    return a / nano;
  }),
  celMethod('asApproximateFloat', opaqueType, [], DOUBLE, function () {
    return Number(amountOf(this)) / 1e9;
  }),
  ...arithmetic('add', (a, b) => a + b),
  ...arithmetic('sub', (a, b) => a - b),
  celMethod('compareTo', opaqueType, [opaqueType], INT, function (other) {
    const a = amountOf(this);
    const b = amountOf(other);
    return a < b ? -1n : a > b ? 1n : 0n;
  }),
  celMethod('isLessThan', opaqueType, [opaqueType], BOOL, function (other) {
    return amountOf(this) < amountOf(other);
  }),
  celMethod('isGreaterThan', opaqueType, [opaqueType], BOOL, function (other) {
    return amountOf(this) > amountOf(other);
  }),
];

function arithmetic(name: string, op: (a: bigint, b: bigint) => bigint): CelFunc[] {
  return [
    celMethod(name, opaqueType, [opaqueType], opaqueType, function (other) {
      return quantityOf(op(amountOf(this), amountOf(other)));
    }),
    celMethod(name, opaqueType, [INT], opaqueType, function (n) {
      return quantityOf(op(amountOf(this), n * nano));
    }),
  ];
}
