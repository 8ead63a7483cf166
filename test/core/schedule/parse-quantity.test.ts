import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuantity, quantityMilliValue, quantityValue } from '../../../src/core/model/parse-quantity.js';

const cases: { name: string; given: unknown; want: { value: bigint; milli: bigint } | undefined }[] = [
  {
    name: 'Millicores parse to milli-units and round up to one whole unit.',
    given: '250m',
    want: { value: 1n, milli: 250n },
  },
  { name: 'A plain integer is whole units.', given: '1', want: { value: 1n, milli: 1000n } },
  { name: 'A decimal fraction is exact.', given: '1.5', want: { value: 2n, milli: 1500n } },
  {
    name: 'A tenth is exactly 100m, without floating-point error.',
    given: '0.1',
    want: { value: 1n, milli: 100n },
  },
  {
    name: 'Binary suffixes are powers of 1024.',
    given: '128Mi',
    want: { value: 134217728n, milli: 134217728000n },
  },
  {
    name: 'A fractional binary quantity is exact.',
    given: '1.5Gi',
    want: { value: 1610612736n, milli: 1610612736000n },
  },
  {
    name: 'Decimal suffixes are powers of 1000.',
    given: '1G',
    want: { value: 1000000000n, milli: 1000000000000n },
  },
  { name: 'k is a thousand.', given: '2k', want: { value: 2000n, milli: 2000000n } },
  {
    name: 'An exponent multiplies by a power of ten.',
    given: '1e3',
    want: { value: 1000n, milli: 1000000n },
  },
  { name: 'An upper-case exponent works too.', given: '1E3', want: { value: 1000n, milli: 1000000n } },
  {
    name: 'A bare E is the exa suffix, not an exponent.',
    given: '1E',
    want: { value: 10n ** 18n, milli: 10n ** 21n },
  },
  { name: 'Nano-units round up to one milli-unit.', given: '100n', want: { value: 1n, milli: 1n } },
  { name: 'A leading dot is allowed.', given: '.5', want: { value: 1n, milli: 500n } },
  { name: 'A trailing dot is allowed.', given: '5.', want: { value: 5n, milli: 5000n } },
  { name: 'A number from YAML is read as its decimal text.', given: 2, want: { value: 2n, milli: 2000n } },
  {
    name: 'A negative quantity rounds away from zero.',
    given: '-1500m',
    want: { value: -2n, milli: -1500n },
  },
  { name: 'Text that is not a quantity gives undefined.', given: 'abc', want: undefined },
  { name: 'An empty string gives undefined.', given: '', want: undefined },
  { name: 'An unknown suffix gives undefined.', given: '1Xi', want: undefined },
  { name: 'A sign alone gives undefined.', given: '-', want: undefined },
  { name: 'An exponent and a suffix cannot be combined.', given: '1e3m', want: undefined },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const nano = parseQuantity(given);
    const got =
      nano === undefined ? undefined : { value: quantityValue(nano), milli: quantityMilliValue(nano) };
    assert.deepEqual(got, want);
  });
}
