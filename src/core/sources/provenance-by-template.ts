// Each template a source rendered, with where it came from (docs/sources.md#provenance): what the
// bindings records name in `spec.templateSource`.
import type { Fleet } from '../model/fleet.js';
import { templateProvenanceOf, type TemplateProvenance } from '../model/source-provenance.js';

/** Returns template key → provenance, for the templates a source rendered (none without sources). */
export function provenanceByTemplate(
  fleet: Pick<Fleet, 'templates' | 'sourceProvenance'>,
): Map<string, TemplateProvenance> {
  const out = new Map<string, TemplateProvenance>();
  if (fleet.sourceProvenance === undefined) return out;
  for (const template of fleet.templates) {
    const p = templateProvenanceOf(fleet.sourceProvenance, template.source.file);
    if (p !== undefined) out.set(template.key, p);
  }
  return out;
}
