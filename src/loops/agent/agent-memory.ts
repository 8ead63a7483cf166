// What an agent remembers between passes, in memory only: nothing here is needed for safety
// (the inventory in the cluster and the branches in Git are the state); it only saves requests
// and bounds drift fights. A restarted agent (or `agent --once`) starts with the
// resourceVersions the inventory recorded after its last applies, so it checks with a server
// dry-run only the objects written since, not every object.
import type { BranchInterpreter } from '../../adapters/lua/branch-interpreter.js';
import type { FightSettings } from '../../core/apply-plan/plan-drift-correction.js';
import type { DriftNote } from '../../core/apply-plan/drift-report-lines.js';
import { defaultFightSettings } from '../../core/apply-plan/plan-drift-correction.js';
import type { ClusterStatus } from '../../core/model/cluster.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import type { ExportedSlice } from '../../core/model/exported-slice.js';
import type { StatusTarget } from './status-target.js';
import type { ObjectStatusRecord } from '../../core/status/status-branch.js';
import type { ResourceInterpreter } from '../../core/model/resource-interpreter.js';
import type { InventoryAt, InventoryLocation } from './inventory-store.js';
import type { ReturnState } from '../../core/apply-plan/return-gate.js';
import { MemoMap } from '../runtime/memo-map.js';
import type { BranchRead } from './read-cluster-branch.js';
import { createStatusMemo, type StatusMemo } from './write-status-branch.js';

export interface AgentMemory {
  /** Where this term writes status and heartbeats (status-target.ts); absent: the agent's repository. */
  statusTarget?: StatusTarget;
  /** refKey → the resourceVersion last seen matching the manifest (after our apply, or a clean dry-run). */
  settled: Map<string, string>;
  /** refKey → times (ms) of recent drift corrections, for the fight backoff. */
  corrections: Map<string, number[]>;
  /**
   * refKey → the drift corrections not yet told by a status commit, summed: the next status
   * commit lists them (core/apply-plan/drift-report-lines.ts) and, once written, clears them.
   */
  driftUntold: Map<string, DriftNote>;
  fight: FightSettings;
  /** Parsed manifests by blob id (a parse error is kept as its message). */
  parsed: MemoMap<string, KubeObject | string>;
  /**
   * Git reachability: since when refreshes fail, how many did, and the last outage's summary;
   * `rateLimitWaitMs` when the last refresh failed for the host's rate limit (how long it asked).
   */
  git: {
    downSinceMs?: number;
    failures: number;
    lastError?: string;
    lastOutage?: string;
    rateLimitWaitMs?: number;
  };
  /** The cluster-branch commit last fully applied (undefined: not read from the status branch yet). */
  appliedCommit?: string | null;
  /** refKey → a terminal failure of a manifest on a live version, not retried until either changes. */
  terminal: Map<string, { digest: string; resourceVersion: string | undefined; message: string }>;
  /** The object records of the last report, kept when the cluster stops answering. */
  lastObjects?: ObjectStatusRecord[];
  /** The exported slices of the last report, kept when the cluster stops answering. */
  lastExports?: ExportedSlice[];
  /** Cluster-branch commits whose deletion allowance was proven to come from the hub. */
  trustedAllowances: Set<string>;
  /** The last cluster facts read, and when. */
  facts?: { atMs: number; status: ClusterStatus };
  /** The last read of the cluster branch (read again only when its head moves). */
  branch?: BranchRead;
  /** The inventory as last read or written, and the ConfigMap's resourceVersion then (read again only when that changes). */
  inventory?: InventoryAt;
  /** The interpreter of the branch's customizations, made again only when the file changes. */
  interpreter?: BranchInterpreter;
  /**
   * refKey → the status record of an object last found in place, and the live resourceVersion
   * and interpreter it was judged on: while both are the same, the object is unchanged, so a
   * pass needs only its metadata (observed-records.ts). Rebuilt by every report.
   */
  observed: Map<string, ObservedRecord>;
  /** Set while the cluster returns from maybe being judged down: deletions wait for the hub (core/apply-plan/return-gate.ts). */
  returning?: ReturnState;
  /** Whether a pass of this process has looked at the return yet (the first one starts a return). */
  returnChecked?: boolean;
  /** Where the inventory lives, found once per process (inventory-location.ts). */
  inventoryAt?: InventoryLocation;
  /** The fleet identity found from the cluster branch's root commit (read-fleet-identity.ts). */
  fleet?: string;
  /** What the status writes made, so an unchanged report is not written out again. */
  status: StatusMemo;
  /**
   * refKey → the generation an apply of ours that changed the object's spec got, and when (the
   * loop's clock): a Deployment's progress deadline is judged as of after it (HealthContext).
   * Kept for the objects of the last report only.
   */
  specApplied: Map<string, { generation: number; atMs: number }>;
}

/** What the last report said of an object in place, and what it judged it on. */
export interface ObservedRecord {
  resourceVersion: string;
  interpreter: ResourceInterpreter | undefined;
  /** Frozen: shared by the reports of every pass that finds the object unchanged. */
  record: Readonly<ObjectStatusRecord>;
}

/** Returns an empty memory with the default fight settings. */
export function createAgentMemory(fight: FightSettings = defaultFightSettings()): AgentMemory {
  return {
    settled: new Map(),
    corrections: new Map(),
    driftUntold: new Map(),
    terminal: new Map(),
    trustedAllowances: new Set(),
    fight,
    parsed: new MemoMap(),
    git: { failures: 0 },
    observed: new Map(),
    status: createStatusMemo(),
    specApplied: new Map(),
  };
}
