// Where a template that a source rendered came from (docs/sources.md#provenance): the source
// document, the chart (its name, version and digest) or the kustomization (its path and tree id),
// the tool and its version, and the render groups where the source renders per cluster. The
// renderer (adapters/render-tools) hands it with the rendered files; core carries it as data.
/** Where the objects of one template source came from. */
export interface SourceProvenance {
  kind: 'HelmSource' | 'KustomizeSource';
  name: string;
  /** The source document's file. */
  file: string;
  /** A HelmSource's chart: as the source names it (`ref`), and as its Chart.yaml says. */
  chart?: {
    ref: string;
    /** Chart.yaml's name (absent when it has none). */
    name?: string;
    /** Chart.yaml's version (absent when it has none: the words say so). */
    version?: string;
    /** The .tgz's git object id or the directory's tree id; an OCI chart's manifest digest. */
    digest?: string;
  };
  /** A KustomizeSource's kustomization directory and its tree id. */
  kustomization?: { path: string; digest?: string };
  /** The tool and its version, as it says them (`helm v4.3.2`). */
  tool: string;
  /** Where the source renders per cluster: each render group's clusters, the first group's first. */
  groups?: string[][];
}

/** The provenance of one template: its source's, and the rendered file it was read from. */
export interface TemplateProvenance extends SourceProvenance {
  /** `<source document>@<chart file>`: the template's file, as its `gitfleet.io/source` annotation says. */
  renderedFile: string;
}

/** Returns the provenance of a template read from a rendered file, or undefined for a committed one. */
export function templateProvenanceOf(
  provenance: ReadonlyMap<string, SourceProvenance> | undefined,
  file: string,
): TemplateProvenance | undefined {
  const p = provenance?.get(file);
  return p === undefined ? undefined : { ...p, renderedFile: file };
}
