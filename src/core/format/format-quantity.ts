// Quantities back to text for messages, close to Kubernetes' Quantity.String(): whole units
// with the largest binary suffix that divides them for binary quantities (memory, storage),
// else whole units, else milli-units, else nano-units.
const NANO = 1_000_000_000n;
const BINARY: readonly [string, bigint][] = [
  ['Ei', 1n << 60n],
  ['Pi', 1n << 50n],
  ['Ti', 1n << 40n],
  ['Gi', 1n << 30n],
  ['Mi', 1n << 20n],
  ['Ki', 1n << 10n],
];

/** Returns a quantity held in nano-units as text (`2`, `1500m`, `3Gi`). */
export function formatQuantity(nano: bigint, binary: boolean): string {
  if (nano % NANO === 0n) {
    const units = nano / NANO;
    if (binary && units !== 0n)
      for (const [suffix, size] of BINARY) if (units % size === 0n) return `${units / size}${suffix}`;
    return String(units);
  }
  if (nano % 1_000_000n === 0n) return `${nano / 1_000_000n}m`;
  return `${nano}n`;
}

/** Returns whether a resource's quantities read best in binary units (bytes). */
export function isBinaryResource(name: string): boolean {
  return /memory|storage|hugepages/.test(name);
}
