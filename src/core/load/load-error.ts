// Why a fleet repo could not be loaded. Loading collects every error of every file and returns
// them together; it never returns part of a fleet.

import { escapeControls } from '../model/quote-text.js';

export type LoadErrorCode =
  | 'YamlSyntax'
  | 'DuplicateKey'
  | 'MissingField'
  | 'InvalidName'
  | 'DuplicateIdentity'
  | 'InvalidPolicy'
  | 'InvalidCluster'
  | 'InvalidFleetConfig'
  | 'AliasExpansion'
  | 'FileTooLarge'
  | 'TooManyFleetConfigs'
  /** A field the kind's schema does not have (an error for Karmada's kinds, a warning for built-in ones). */
  | 'UnknownField'
  /** An apiVersion or kind that names nothing in an API group gitfleet understands (check-known-kind.ts). */
  | 'UnknownKind'
  /** A Tenant that does not parse, two tenants owning one file, or a tenant's document it may not hold (check-tenant-files.ts). */
  | 'InvalidTenant'
  /** A HelmSource or KustomizeSource that does not validate (parse-template-source.ts). */
  | 'InvalidSource'
  /** A HelmSource or KustomizeSource whose tool failed, timed out or gave output that is refused (docs/sources.md). */
  | 'SourceRenderFailed'
  /** A SOPS-encrypted template gitfleet cannot place or decrypt (core/secrets/check-sops-template.ts). */
  | 'UnsupportedEncryption'
  /** A Secret committed with its values in the clear: a warning (core/secrets/find-plaintext-secrets.ts). */
  | 'PlaintextSecret';

/** One reason a fleet repo does not load, with where it is. */
export interface LoadError {
  code: LoadErrorCode;
  /** Path relative to the repo root. */
  file: string;
  /** Zero-based index of the document in the file's YAML stream. */
  index?: number;
  /** One-based line: where the parser stopped, or where the document starts. */
  line?: number;
  /** One-based column, when the parser gives one. */
  column?: number;
  /** Subject first, e.g. `PropagationPolicy/default/web: spec.placement: …`. */
  message: string;
}

/**
 * Returns `file#index:line:column: message`, leaving out the parts that are unknown; a control
 * character in the file name or the message (a YAML key) is escaped, so the error is one line.
 */
export function formatLoadError(e: LoadError): string {
  let where = escapeControls(e.file);
  if (e.index !== undefined) where += `#${e.index}`;
  if (e.line !== undefined) where += `:${e.line}`;
  if (e.line !== undefined && e.column !== undefined) where += `:${e.column}`;
  return `${where}: ${escapeControls(e.message)}`;
}
