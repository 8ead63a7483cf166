// The status views' side of render repositories (docs/git-budget.md#render-repositories): the
// bindings branch records where the hub published each cluster branch
// (`.gitfleet/render-repositories/<cluster>`, core/model/render-repository.ts); each such
// cluster's head is read there (a path in place, a URL through the mirror `open` brings up to
// date), over the fleet repository's own branch of that name. A render repository that cannot
// be read makes its clusters unreadable, naming the repository, never the whole read.
import { listRefs } from '../../adapters/git/list-refs.js';
import { readBlobTextNow, readTreeNow, readTreePathNow } from '../../adapters/git/read-typed-object.js';
import { treeMode } from '../../adapters/git/tree-object.js';
import { renderLocationDir } from '../../core/model/render-repository.js';
import { clusterRefPrefix } from '../../core/publish/hub-refs.js';
import type { FleetRead } from './read-fleet-objects.js';

/** The cluster heads wherever they live. */
export interface RenderedHeads {
  /** Cluster → the head of its branch where the hub publishes it. */
  heads: Map<string, string>;
  /** Cluster → why its render repository cannot be read. */
  unreadable: Map<string, string>;
  /** The git directories of the render repositories read (where their commits are). */
  gitdirs: string[];
  /** Cluster → the git directory its branch was read from, for those in a render repository. */
  readIn: Map<string, string>;
}

/** Returns cluster → URL or path the bindings tree records for its branch (none: the fleet repository). */
export function readRenderLocations(read: FleetRead, bindingsTree: string): Map<string, string> {
  const out = new Map<string, string>();
  const dir = readTreePathNow(read.store, bindingsTree, renderLocationDir);
  if (dir?.mode !== treeMode) return out;
  for (const entry of readTreeNow(read.store, dir.oid, renderLocationDir.slice(0, -1))) {
    if (entry.mode === treeMode) continue;
    const url = readBlobTextNow(read.store, entry.oid, `${renderLocationDir}${entry.name}`).trim();
    if (url !== '') out.set(entry.name, url);
  }
  return out;
}

/** Returns each cluster's head where it lives, the fleet repository's heads given. */
export async function readRenderedHeads(opts: {
  branchPrefix: string;
  fleetHeads: ReadonlyMap<string, string>;
  locations: ReadonlyMap<string, string>;
  /** Returns the git directory of a render repository, up to date (throws when it cannot be read). */
  open: (url: string) => Promise<string>;
}): Promise<RenderedHeads> {
  const heads = new Map(opts.fleetHeads);
  const unreadable = new Map<string, string>();
  const gitdirs: string[] = [];
  const readIn = new Map<string, string>();
  const byUrl = new Map<string, string[]>();
  for (const [cluster, url] of opts.locations) byUrl.set(url, [...(byUrl.get(url) ?? []), cluster]);
  const prefix = clusterRefPrefix(opts.branchPrefix);
  for (const [url, clusters] of byUrl) {
    let refs: Map<string, string>;
    let gitdir: string;
    try {
      gitdir = await opts.open(url);
      refs = await listRefs(gitdir, prefix);
      gitdirs.push(gitdir);
    } catch (error) {
      const why = `render repository ${url} cannot be read: ${error instanceof Error ? error.message : String(error)}`;
      for (const cluster of clusters) {
        unreadable.set(cluster, why);
        heads.delete(cluster);
      }
      continue;
    }
    for (const cluster of clusters) {
      const head = refs.get(`${prefix}${cluster}`);
      if (head === undefined) heads.delete(cluster);
      else heads.set(cluster, head);
      if (head !== undefined) readIn.set(cluster, gitdir);
    }
  }
  return { heads, unreadable, gitdirs, readIn };
}
