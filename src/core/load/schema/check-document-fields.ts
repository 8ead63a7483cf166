// The strict-field pass: each document of a file (each item of a v1 List) is walked against
// the schema of its kind (kind-schemas.ts), apart from the parsers, which read only the fields
// they act on. Unknown fields of Karmada's kinds and the FleetConfig are errors; those of
// built-in kinds are warnings. Each names the file, the document, the line of the field, its
// path and the valid field it most likely meant.
import { isSopsDocument, sopsKey } from '../../secrets/sops-metadata.js';
import { isMap } from '../../model/kube-object.js';
import { quoteText } from '../../model/quote-text.js';
import { effectiveNamespace } from '../default-namespace.js';
import type { LoadError } from '../load-error.js';
import type { RawDocument } from '../parse-yaml-stream.js';
import { classifyDocument } from '../read-envelope.js';
import type { SourceFile } from '../source-file.js';
import { findUnknownFields, type PathStep, type UnknownField } from './find-unknown-fields.js';
import { kindSchema, type Strictness } from './kind-schemas.js';
import { locateFieldLines } from './locate-field-lines.js';

/** An unknown field, as a load error (code UnknownField). */
export type FieldFinding = LoadError & { code: 'UnknownField' };

/** What the strict-field pass found in one file. */
export interface FieldFindings {
  /** Unknown fields of Karmada's kinds and the FleetConfig: the fleet does not load. */
  errors: FieldFinding[];
  /** Unknown fields of built-in kinds: reported, and the fleet loads. */
  warnings: FieldFinding[];
}

interface Found {
  index: number;
  /** `items[3]: ` for an item of a List. */
  prefix: string;
  subject: string;
  strictness: Strictness;
  field: UnknownField;
  steps: PathStep[];
}

/** Returns the unknown fields of a file's documents, errors and warnings apart, in document order. */
export function checkDocumentFields(file: SourceFile, documents: readonly RawDocument[]): FieldFindings {
  const found: Found[] = [];
  for (const doc of documents) {
    const v = doc.value;
    if (isMap(v) && v['apiVersion'] === 'v1' && v['kind'] === 'List' && Array.isArray(v['items'])) {
      v['items'].forEach((item: unknown, i: number) =>
        checkObject(item, doc.index, [{ field: 'items' }, { index: i }], `items[${i}]: `, found),
      );
    } else checkObject(v, doc.index, [], '', found);
  }
  const findings: FieldFindings = { errors: [], warnings: [] };
  if (found.length === 0) return findings;
  const lines = locateFieldLines(file.content, found);
  found.forEach((f, i) => {
    const line = lines[i] ?? documents.find((d) => d.index === f.index)?.line;
    const finding: FieldFinding = {
      code: 'UnknownField',
      file: file.path,
      index: f.index,
      ...(line !== undefined ? { line } : {}),
      message: `${f.prefix}${f.subject}: ${f.field.path}: ${describeField(f.field, f.strictness)}`,
    };
    (f.strictness === 'error' ? findings.errors : findings.warnings).push(finding);
  });
  return findings;
}

function checkObject(
  value: unknown,
  index: number,
  prefixSteps: PathStep[],
  prefix: string,
  found: Found[],
): void {
  if (!isMap(value)) return;
  const { apiVersion, kind } = value;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return;
  const schema = kindSchema(apiVersion, kind);
  if (schema === undefined) return;
  // A SOPS-encrypted document carries its metadata under `sops` (core/secrets/sops-metadata.ts).
  const { [sopsKey]: _sops, ...fields } = value;
  const unknown = findUnknownFields(isSopsDocument(value) ? fields : value, schema.schema);
  if (unknown.length === 0) return;
  const subject = subjectOf(apiVersion, kind, value['metadata']);
  for (const field of unknown)
    found.push({
      index,
      prefix,
      subject,
      strictness: schema.strictness,
      field,
      steps: [...prefixSteps, ...field.steps],
    });
}

function describeField(field: UnknownField, strictness: Strictness): string {
  const what =
    strictness === 'error'
      ? 'unknown field'
      : 'unknown field (the API server drops it and warns, as it does on apply)';
  return field.suggestion === undefined ? what : `${what}; did you mean ${field.suggestion}?`;
}

// `Kind/namespace/name` or `Kind/name`, with the namespace the loader gives the object.
function subjectOf(apiVersion: string, kind: string, metadata: unknown): string {
  const name = isMap(metadata) && typeof metadata['name'] === 'string' ? metadata['name'] : '';
  const written = isMap(metadata) && typeof metadata['namespace'] === 'string' ? metadata['namespace'] : '';
  const role = classifyDocument(apiVersion, kind);
  const namespace =
    role === 'PropagationPolicy' ||
    role === 'OverridePolicy' ||
    role === 'RolloutStrategy' ||
    role === 'TemplateSource'
      ? written || 'default'
      : role === 'Template'
        ? effectiveNamespace(apiVersion, kind, written)
        : '';
  const label = name === '' ? quoteText('') : name;
  return namespace ? `${kind}/${namespace}/${label}` : `${kind}/${label}`;
}
