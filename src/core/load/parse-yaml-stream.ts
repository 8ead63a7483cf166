// One file → its YAML documents. Syntax errors, duplicate keys, oversize files and alias abuse
// become LoadErrors with the file, the document index and the parser's line and column.
import { quoteText } from '../model/quote-text.js';
import { deepCopy } from '../model/kube-object.js';
import * as jsyaml from 'js-yaml';
import { KUBE_YAML_SCHEMA } from './kube-yaml-schema.js';
import type { LoadError } from './load-error.js';
import { measureExpansion } from './measure-expansion.js';
import type { SourceFile } from './source-file.js';

/** One non-empty document of a YAML stream. */
export interface RawDocument {
  value: unknown;
  /** Zero-based position in the stream, empty documents included. */
  index: number;
  /** One-based line of the document's first content (after `---` and comments). */
  line: number;
}

export interface StreamLimits {
  maxFileBytes: number;
  /** Per document. */
  maxExpandedNodes: number;
  /** Per file: the documents of a file share one budget, so many small bombs are no way round it. */
  maxExpandedBytes: number;
}

/** Returns the non-empty documents of a file, or every error found in it. */
export function parseYamlStream(
  file: SourceFile,
  limits: StreamLimits,
): { ok: true; documents: RawDocument[] } | { ok: false; errors: LoadError[] } {
  if (isLargerThan(file.content, limits.maxFileBytes)) {
    const message = `file is larger than ${limits.maxFileBytes} bytes; not read`;
    return { ok: false, errors: [{ code: 'FileTooLarge', file: file.path, message }] };
  }
  // The root node of each document opens at depth 1; its line is where the document starts.
  const starts: number[] = [];
  let depth = 0;
  let values: unknown[];
  try {
    values = jsyaml.loadAll(file.content, null, {
      schema: KUBE_YAML_SCHEMA,
      filename: file.path,
      listener(event, state) {
        if (event === 'close') depth--;
        else if (++depth === 1) starts.push(state.line);
      },
    });
  } catch (e) {
    if (!(e instanceof jsyaml.YAMLException)) throw e;
    return { ok: false, errors: [syntaxError(file, e, Math.max(0, starts.length - 1))] };
  }
  return collectDocuments(file, values, starts, limits);
}

function collectDocuments(
  file: SourceFile,
  values: unknown[],
  starts: number[],
  limits: StreamLimits,
): { ok: true; documents: RawDocument[] } | { ok: false; errors: LoadError[] } {
  // Aliases need anchors: a file without '&' shares nothing and needs no walk.
  const mayShare = file.content.includes('&');
  const documents: RawDocument[] = [];
  const errors: LoadError[] = [];
  let bytes = 0;
  values.forEach((value, index) => {
    if (value === null || value === undefined) return;
    const line = (starts[index] ?? 0) + 1;
    if (!mayShare) {
      documents.push({ value, index, line });
      return;
    }
    const expansion = measureExpansion(value, {
      maxNodes: limits.maxExpandedNodes,
      maxBytes: limits.maxExpandedBytes - bytes,
    });
    if (expansion.exceeded) {
      errors.push({
        code: 'AliasExpansion',
        file: file.path,
        index,
        line,
        message: expansionMessage(expansion.exceeded, limits, bytes > 0),
      });
      return;
    }
    bytes += expansion.bytes;
    // Shared nodes are copied apart so that changing one place can never change another.
    documents.push({ value: expansion.shared ? deepCopy(value) : value, index, line });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, documents };
}

function expansionMessage(exceeded: 'nodes' | 'bytes', limits: StreamLimits, after: boolean): string {
  if (exceeded === 'nodes')
    return `document expands to more than ${limits.maxExpandedNodes} nodes through aliases; refusing it`;
  const together = after ? ', together with the documents before it in the file' : '';
  return `document expands to more than ${limits.maxExpandedBytes} bytes through aliases${together}; refusing it`;
}

function syntaxError(file: SourceFile, e: jsyaml.YAMLException, index: number): LoadError {
  const mark = (e as jsyaml.YAMLException & { mark?: { line?: number; column?: number; position?: number } })
    .mark;
  const duplicate = e.reason.startsWith('duplicated mapping key');
  const key = duplicate && mark?.position !== undefined ? keyAt(file.content, mark.position) : '';
  const error: LoadError = {
    code: duplicate ? 'DuplicateKey' : 'YamlSyntax',
    file: file.path,
    index,
    message: duplicate
      ? `duplicate key${key ? ` ${quoteText(key)}` : ''} in a mapping`
      : `invalid YAML: ${e.reason}`,
  };
  if (mark?.line !== undefined) error.line = mark.line + 1;
  if (mark?.column !== undefined) error.column = mark.column + 1;
  return error;
}

// The duplicate-key mark points at the start of the repeated key: read it up to its ':'.
function keyAt(content: string, position: number): string {
  const end = content.indexOf('\n', position);
  const line = content.slice(position, end < 0 ? undefined : end);
  const colon = line.indexOf(':');
  return (colon < 0 ? line : line.slice(0, colon)).trim().replace(/^["']|["']$/g, '');
}

// Whether the UTF-8 encoding of a string is longer than `limit` bytes, without encoding it.
function isLargerThan(text: string, limit: number): boolean {
  if (text.length * 3 <= limit) return false; // each UTF-16 unit is at most 3 UTF-8 bytes
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= limit; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4; // a surrogate pair: one code point of 4 bytes
      i++;
    } else bytes += 3;
  }
  return bytes > limit;
}
