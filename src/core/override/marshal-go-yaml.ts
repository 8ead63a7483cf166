import * as jsyaml from 'js-yaml';

/**
 * Returns YAML shaped like what Karmada writes a YAML field back with (sigs.k8s.io/yaml JSONToYAML,
 * i.e. go-yaml v2's Marshal): two-space indentation, list items at their parent key's indentation,
 * map keys in go-yaml's order (`compareGoYamlKeys`), multi-line strings as literal blocks, floats
 * spelled as Go's strconv 'g' (`1.2345675e+06`, `1e-05`), and every string that a YAML 1.1 reader
 * would take for something else (`"yes"`, `"1_000"`, `"0x1F"`, `"2024-01-01"`) quoted.
 *
 * Known differences, in spelling only: strings that need quotes for syntax (`a: b`, `#c`, a
 * leading space) get double quotes where go-yaml uses single quotes; long strings are not folded
 * at 80 columns; a float written with a zero fraction (`1.0`) is written as the integer `1`, and
 * integers beyond 2^53 lose precision.
 */
export function marshalGoYaml(value: unknown): string {
  return jsyaml.dump(value, {
    schema: GO_YAML_DUMP_SCHEMA,
    sortKeys: compareGoYamlKeys,
    noArrayIndent: true,
    lineWidth: -1,
    quotingType: '"',
    noRefs: true,
  });
}

// @types/js-yaml does not declare the built-in `types` export, which the library does provide.
const builtins = (
  jsyaml as unknown as { types: Record<'null' | 'bool' | 'int' | 'float' | 'timestamp', jsyaml.Type> }
).types;

// Go's strconv.FormatFloat(f, 'g', -1, 64): shortest digits, exponent form when the exponent is
// below -4 or at least 6 (shortest formatting decides with precision 6), two-digit exponents.
function formatGoFloat(value: number): string {
  if (Number.isNaN(value)) return '.nan';
  if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf';
  const [mantissa = '0', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 6) return Object.is(value, -0) ? '0' : String(value);
  const sign = exponent < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

const goFloat = new jsyaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: string) => builtins.float.resolve(data),
  construct: (data: string) => builtins.float.construct(data) as number,
  predicate: (data: unknown) => typeof data === 'number' && !Number.isInteger(data),
  represent: (data: object) => formatGoFloat(data as unknown as number),
});

// Strings a YAML 1.1 reader (go-yaml v2, which Karmada and Kubernetes tools use) would read as a
// number: underscores, 0b/0x prefixes, leading-zero octal, sexagesimal. Declared as an implicit
// type that represents nothing, so js-yaml only uses it to decide which strings need quotes.
// (YAML 1.1 booleans such as yes/no/on/off are quoted by js-yaml's own compatibility mode.)
const YAML11_NUMBER =
  /^[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|0[0-7_]+|[0-9][0-9_]*(?::[0-5]?[0-9])*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|\.(?:inf|Inf|INF))$|^\.(?:nan|NaN|NAN)$/;

const yaml11Number = new jsyaml.Type('tag:yaml.org,2002:yaml11-number', {
  kind: 'scalar',
  resolve: (data: string) => typeof data === 'string' && YAML11_NUMBER.test(data),
});

const GO_YAML_DUMP_SCHEMA = jsyaml.FAILSAFE_SCHEMA.extend({
  // The timestamp type only makes date-like strings quoted, as go-yaml quotes them: no value
  // here is a Date.
  implicit: [builtins.null, builtins.bool, builtins.int, goFloat, yaml11Number, builtins.timestamp],
});

/**
 * Returns the order go-yaml v2 sorts map keys in (yaml.v2 sorter.go keyList.Less), as a compare
 * function: at the first differing character, letters sort by code point and after non-letters;
 * between non-letters, runs of digits compare as numbers ("b9" < "b10", "2" < "10").
 */
export function compareGoYamlKeys(a: string, b: string): number {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ca = ar[i] ?? '';
    const cb = br[i] ?? '';
    if (ca === cb) continue;
    const aLetter = isLetter(ca);
    const bLetter = isLetter(cb);
    if (aLetter && bLetter) return codePoint(ca) - codePoint(cb);
    if (aLetter || bLetter) return bLetter ? -1 : 1;
    return compareDigitRuns(ar, br, i);
  }
  return ar.length - br.length;
}

function compareDigitRuns(ar: readonly string[], br: readonly string[], i: number): number {
  let an = 0;
  let bn = 0;
  // A zero after a non-zero digit run is part of a number, not a leading zero.
  if (ar[i] === '0' || br[i] === '0') {
    for (let j = i - 1; j >= 0 && isDigit(ar[j] ?? ''); j--) {
      if (ar[j] !== '0') {
        an = 1;
        bn = 1;
        break;
      }
    }
  }
  let ai = i;
  for (; ai < ar.length && isDigit(ar[ai] ?? ''); ai++) an = an * 10 + codePoint(ar[ai] ?? '') - 48;
  let bi = i;
  for (; bi < br.length && isDigit(br[bi] ?? ''); bi++) bn = bn * 10 + codePoint(br[bi] ?? '') - 48;
  if (an !== bn) return an - bn;
  if (ai !== bi) return ai - bi;
  return codePoint(ar[i] ?? '') - codePoint(br[i] ?? '');
}

function isLetter(char: string): boolean {
  return /^\p{L}$/u.test(char);
}

function isDigit(char: string): boolean {
  return /^\p{Nd}$/u.test(char);
}

function codePoint(char: string): number {
  return char.codePointAt(0) ?? 0;
}
