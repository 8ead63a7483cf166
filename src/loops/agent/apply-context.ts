import type { ResourceInterpreter } from '../../core/model/resource-interpreter.js';
import type { Inventory } from '../../core/apply-plan/inventory.js';
import type { KubeClient } from '../../adapters/kube/kube-client.js';
import type { AgentMemory } from './agent-memory.js';
import type { LiveIndex } from './live-index.js';

/** What applying and pruning objects in one pass work with: the cluster, what is live, what the agent remembers. */
export interface ApplyContext {
  client: KubeClient;
  cluster: string;
  live: LiveIndex;
  memory: AgentMemory;
  inventory: Inventory;
  nowMs: () => number;
  /** Runs the branch's customizations (Retain before each apply). */
  interpreter?: ResourceInterpreter;
}
