// Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource):
//   <sign><digits>[.<digits>]<suffix>
//   suffix: binary  Ki Mi Gi Ti Pi Ei          (powers of 1024)
//           decimal n u m "" k M G T P E       (powers of 1000)
//           exponent e<int> / E<int>           ("1e3" = 1000; a bare "E" is exa)
// Values are held exactly as a count of nano-units (1e-9), the finest precision Kubernetes
// keeps, so `0.1` CPU is exactly 100m and never 100.00000000000001m.

const QUANTITY = /^([+-]?)(\d*)(?:\.(\d*))?(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/;

const BINARY_SHIFT: Record<string, bigint> = { Ki: 10n, Mi: 20n, Gi: 30n, Ti: 40n, Pi: 50n, Ei: 60n };
const DECIMAL_EXPONENT: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const MAX_EXPONENT = 100;
const NANO = 1_000_000_000n;

/** Returns the quantity in nano-units (rounded up), or undefined when the text is not a quantity. */
export function parseQuantity(value: unknown): bigint | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  const match = QUANTITY.exec(text.trim());
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', suffix, exponent] = match;
  if (whole === '' && fraction === '') return undefined;
  let exp10 = -fraction.length + 9;
  let shift = 0n;
  if (suffix !== undefined) {
    shift = BINARY_SHIFT[suffix] ?? 0n;
    exp10 += DECIMAL_EXPONENT[suffix] ?? 0;
  } else if (exponent !== undefined) {
    const e = Number(exponent);
    if (Math.abs(e) > MAX_EXPONENT) return undefined;
    exp10 += e;
  }
  const mantissa = BigInt(`${whole}${fraction}` || '0') << shift;
  const magnitude = exp10 >= 0 ? mantissa * 10n ** BigInt(exp10) : ceilDiv(mantissa, 10n ** BigInt(-exp10));
  return sign === '-' ? -magnitude : magnitude;
}

/** Returns Kubernetes' `Quantity.Value()`: whole units, rounded away from zero. */
export function quantityValue(nano: bigint): bigint {
  return roundAway(nano, NANO);
}

/** Returns Kubernetes' `Quantity.MilliValue()`: milli-units, rounded away from zero. */
export function quantityMilliValue(nano: bigint): bigint {
  return roundAway(nano, NANO / 1000n);
}

function roundAway(value: bigint, unit: bigint): bigint {
  return value < 0n ? -ceilDiv(-value, unit) : ceilDiv(value, unit);
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
