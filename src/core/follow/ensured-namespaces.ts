import type { Binding } from '../model/binding.js';
import type { Template } from '../model/fleet.js';

/** The Namespaces a render adds to clusters besides those placed (ensureNamespaces). */
export interface EnsuredNamespaces {
  /** Extra Namespace bindings per cluster. */
  perCluster: Map<string, Binding[]>;
  /** Namespace templates made up because the fleet repo has none for a namespace in use. */
  generated: Template[];
}
