import type { ResourceInterpreter } from '../../core/model/resource-interpreter.js';
import type { Inventory } from '../../core/apply-plan/inventory.js';
import type { ClusterApi } from './cluster-api.js';
import type { Clock } from '../runtime/clock.js';
import type { AgentMemory } from './agent-memory.js';
import type { LiveIndex } from './live-index.js';

/** What applying and pruning objects in one pass work with: the cluster, what is live, what the agent remembers. */
export interface ApplyContext {
  client: ClusterApi;
  cluster: string;
  /** The identity of the fleet the agent serves (fleet-identity.ts), on every object it applies. */
  fleet: string;
  live: LiveIndex;
  memory: AgentMemory;
  inventory: Inventory;
  /** The loop's clock: drift-fight times and the waits on the cluster. */
  clock: Clock;
  /** Runs the branch's customizations (Retain before each apply). */
  interpreter?: ResourceInterpreter;
}
