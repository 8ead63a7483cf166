// What the rollout stage keeps between passes (hub-rollout.ts), so a pass costs what changed:
// the blob ids and content digests of the texts it saw, each cluster's look at a strategy's
// objects, and each edited cluster output with what it was made from.
import type { ClusterOutput } from '../../core/render/cluster-output.js';
import type { ClusterView } from '../../core/rollout/rollout-input.js';
import type { HeldChange } from '../../core/rollout/held-objects.js';
import { objectDigest } from '../../core/rollout/held-objects.js';
import { patchMap } from '../../core/model/patched-map.js';
import { hashObject } from '../../adapters/git/hash-object.js';

/** One strategy's objects on one cluster: what the render changes, path by path. */
export interface ClusterLook {
  view: ClusterView;
  paths: Map<string, { change: HeldChange; before?: string }>;
  /** The rendered selected paths, each with its part of the content digest (held-objects.ts entryDigest). */
  rendered: Map<string, Uint32Array>;
  /** The content digest so far (the XOR of `rendered`'s parts). */
  acc: Uint32Array;
}

/**
 * What a pass's rollout stage keeps for the next one, so a pass costs what changed: the blob
 * ids and content digests of the texts it saw (by text), and each edited cluster output with
 * the render output and edits it was made from (an unchanged pair gives the same object back,
 * a render derived from the last one gives an output derived from the last one, so the branch
 * is planned at its changed paths only).
 */
export interface RolloutCache {
  oids: Map<string, string>;
  digests: Map<string, string>;
  outputs: Map<string, EditedOutput>;
  /** `<strategy>\0<cluster>` → what the stage saw there, and from what (a cluster whose render and head are the same is not looked at again). */
  looks: Map<
    string,
    { pathsKey: string; output: ClusterOutput; head: string | null; look: ClusterLook | undefined }
  >;
}

interface EditedOutput {
  render: ClusterOutput;
  edits: ReadonlyMap<string, string | undefined>;
  output: ClusterOutput;
}

/** Texts remembered by blob id and digest: past this many, the memory starts over. */
const maxRememberedTexts = 200_000;

/** This pass's view of the cache: what it reads from the last pass, and what it keeps for the next. */
export class RolloutMemo {
  readonly next: RolloutCache;

  constructor(private readonly last: RolloutCache | undefined) {
    // The texts' ids and digests carry over whole (a look reused from the last pass reads none
    // of them, and the next pass may need them), bounded by maxRememberedTexts.
    const keep = (m: Map<string, string> | undefined) =>
      m && m.size < maxRememberedTexts ? m : new Map<string, string>();
    this.next = {
      oids: keep(last?.oids),
      digests: keep(last?.digests),
      outputs: new Map(),
      looks: new Map(),
    };
  }

  oidOf(text: string): string {
    let oid = this.next.oids.get(text);
    if (oid === undefined) this.next.oids.set(text, (oid = hashObject('blob', Buffer.from(text, 'utf8'))));
    return oid;
  }

  digestOf = (path: string, text: string): string => {
    let digest = this.next.digests.get(text);
    if (digest === undefined) this.next.digests.set(text, (digest = objectDigest(path, text)));
    return digest;
  };

  /** Returns the look at a strategy's objects on a cluster: the last pass's when its inputs are the same ones. */
  async look(
    key: { label: string; pathsKey: string; cluster: string; output: ClusterOutput; head: string | null },
    compute: (since?: {
      look: ClusterLook | undefined;
      paths: ReadonlySet<string>;
    }) => Promise<ClusterLook | undefined>,
  ): Promise<ClusterLook | undefined> {
    const id = `${key.label}\0${key.cluster}`;
    const last = this.last?.looks.get(id);
    const comparable = last && last.pathsKey === key.pathsKey && last.head === key.head;
    const derived = key.output.derived;
    // The same render and head: the same look. A render derived from the last one: only its changed paths.
    const look =
      comparable && last.output === key.output
        ? last.look
        : await compute(
            comparable && derived?.from === last.output
              ? { look: last.look, paths: derived.paths }
              : undefined,
          );
    this.next.looks.set(id, { pathsKey: key.pathsKey, output: key.output, head: key.head, look });
    return look;
  }

  /** The clusters whose outputs the last pass edited. */
  lastEdited(): Iterable<string> {
    return this.last?.outputs.keys() ?? [];
  }

  /**
   * Returns the render output with the edits in place: the last pass's object when the render
   * and the edits are the same, else a new output, derived from what the branch was planned
   * from last pass (`plannedLast`) when the difference is known, so it is planned at those paths.
   */
  edited(
    cluster: string,
    render: ClusterOutput,
    edits: ReadonlyMap<string, string | undefined>,
    plannedLast: ClusterOutput | undefined,
  ): ClusterOutput {
    const last = this.last?.outputs.get(cluster);
    let output: ClusterOutput;
    if (last && last.render === render && sameEdits(last.edits, edits)) output = last.output;
    else {
      output = { files: patchMap(render.files, edits), held: render.held };
      // The planned output was the last edited one (its render and edits) or a plain render.
      const base =
        plannedLast && last?.output === plannedLast
          ? last
          : plannedLast && { render: plannedLast, edits: noEdits };
      const rendered = base ? renderChanges(render, base.render) : undefined;
      if (base && plannedLast && rendered)
        output.derived = { from: plannedLast, paths: changedPaths(rendered, base.edits, edits) };
    }
    this.next.outputs.set(cluster, { render, edits, output });
    return output;
  }
}

/** The paths where a render output may differ from an earlier one: none for the same object, its derived paths when derived from it. */
function renderChanges(render: ClusterOutput, before: ClusterOutput): ReadonlySet<string> | undefined {
  if (render === before) return noPaths;
  return render.derived?.from === before ? render.derived.paths : undefined;
}

const noPaths: ReadonlySet<string> = new Set();

export const noEdits: ReadonlyMap<string, string | undefined> = new Map();

function sameEdits(
  a: ReadonlyMap<string, string | undefined>,
  b: ReadonlyMap<string, string | undefined>,
): boolean {
  if (a.size !== b.size) return false;
  for (const [path, text] of a) if (!b.has(path) || b.get(path) !== text) return false;
  return true;
}

function changedPaths(
  rendered: ReadonlySet<string>,
  before: ReadonlyMap<string, string | undefined>,
  after: ReadonlyMap<string, string | undefined>,
): Set<string> {
  const paths = new Set(rendered);
  for (const [path, text] of before) if (!after.has(path) || after.get(path) !== text) paths.add(path);
  for (const [path, text] of after) if (!before.has(path) || before.get(path) !== text) paths.add(path);
  return paths;
}
