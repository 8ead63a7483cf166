// Kubernetes quantities as the kube library's functions return them: parsed exactly (in
// nano-units, core/model/parse-quantity.ts) and printed in Quantity.String()'s canonical
// form (k8s.io/apimachinery/pkg/api/resource, quantity.go CanonicalizeBytes and amount.go):
//
// | format          | printed as                                                                   |
// |-----------------|------------------------------------------------------------------------------|
// | DecimalSI       | integer mantissa, exponent a multiple of 3: n u m "" k M G T P E ("1500m", "2k") |
// | BinarySI        | integer × 1024^k with the largest k: Ki Mi Gi Ti Pi Ei ("1536Mi"); a value    |
// |                 | under 1024 in magnitude or not whole prints as DecimalSI                      |
// | DecimalExponent | as DecimalSI with "e<exponent>" for the suffix ("2e3"); also a quantity       |
// |                 | without format (the zero Quantity)                                           |
import { parseQuantity } from '../../core/model/parse-quantity.js';

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent' | '';

/** A quantity: nano-units and the format it prints in. */
export interface Quantity {
  nano: bigint;
  format: QuantityFormat;
}

const DECIMAL_SUFFIXES: Readonly<Record<number, string>> = {
  [-9]: 'n',
  [-6]: 'u',
  [-3]: 'm',
  0: '',
  3: 'k',
  6: 'M',
  9: 'G',
  12: 'T',
  15: 'P',
  18: 'E',
};
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const NANO = 1_000_000_000n;

/** Returns the quantity a string writes, or undefined when it is not one. */
export function readQuantity(text: string): Quantity | undefined {
  const nano = parseQuantity(text);
  if (nano === undefined) return undefined;
  const trimmed = text.trim();
  const format: QuantityFormat = /[KMGTPE]i$/.test(trimmed)
    ? 'BinarySI'
    : /\d[eE][+-]?\d+$/.test(trimmed)
      ? 'DecimalExponent'
      : 'DecimalSI';
  return { nano, format };
}

/** Returns Quantity.String() of a quantity. */
export function formatQuantity(q: Quantity): string {
  if (q.nano === 0n) return '0';
  if (q.format === 'BinarySI' && (q.nano >= 1024n * NANO || q.nano <= -1024n * NANO) && q.nano % NANO === 0n)
    return formatBinary(q.nano / NANO);
  return formatDecimal(q.nano, q.format === 'DecimalSI');
}

function formatBinary(value: bigint): string {
  let mantissa = value;
  let power = 0;
  while (power < BINARY_SUFFIXES.length - 1 && mantissa % 1024n === 0n) {
    mantissa /= 1024n;
    power++;
  }
  return `${mantissa}${BINARY_SUFFIXES[power]}`;
}

function formatDecimal(nano: bigint, si: boolean): string {
  let mantissa = nano;
  let exponent = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  const down = ((exponent % 3) + 3) % 3;
  mantissa *= 10n ** BigInt(down);
  exponent -= down;
  const suffix = si ? DECIMAL_SUFFIXES[exponent] : exponent === 0 ? '' : undefined;
  return `${mantissa}${suffix ?? `e${exponent}`}`;
}

/** Returns the quantity as a float (Quantity.AsApproximateFloat64). */
export function approximateQuantity(q: Quantity): number {
  return Number(q.nano) / 1e9;
}
