import type { Binding, TargetCluster } from '../model/binding.js';

/** One binding to render on its clusters (render-memo.ts UnitRender). */
export interface RenderUnit {
  /** The binding's key; `key\0cluster` for a Namespace binding made for one cluster. */
  id: string;
  /** Its place in a cluster's diagnostics: bindings by key, then the Namespaces made per cluster. */
  rank: string;
  binding: Binding;
  /** The registered clusters it is scheduled on. */
  targets: readonly TargetCluster[];
}
