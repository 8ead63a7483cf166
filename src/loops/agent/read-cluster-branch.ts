// Reads the head of a cluster branch straight from git objects: every object file, parsed, with
// its blob id as the digest of its manifest. A file that does not parse is reported, and its
// path still names the object, so the agent never prunes an object just because its file broke.
import { branchExportsPath } from '../../core/mcs/provider-exports.js';
import { statusRepositoryPath } from '../../core/model/status-repository.js';
import { branchCustomizationsPath } from '../../core/interpret/branch-customizations.js';
import yaml from 'js-yaml';
import { readRef } from '../../adapters/git/read-ref.js';
import { withCache, type ObjectSource } from '../../adapters/git/read-git-object.js';
import { readBlobText, readCommit, readTree } from '../../adapters/git/read-typed-object.js';
import { treeMode } from '../../adapters/git/tree-object.js';
import { refKeyOfPath } from '../../core/apply-plan/branch-path.js';
import { KUBE_YAML_SCHEMA } from '../../core/load/kube-yaml-schema.js';
import { isMap, type KubeObject } from '../../core/model/kube-object.js';
import type { ObjectRef } from '../../core/model/object-ref.js';
import type { MemoMap } from '../runtime/memo-map.js';
import { tombstonePath } from '../../core/publish/tombstone.js';
import type { SignatureVerdict } from '../../core/model/signature-verdict.js';

/** One object of the branch. */
export interface DesiredObject {
  ref: ObjectRef;
  path: string;
  /** The blob id of its file: equal digests, equal manifests. */
  digest: string;
  manifest: KubeObject;
}

export type BranchRead =
  | { type: 'missing' }
  | { type: 'tombstoned'; commit: string; message: string }
  /** The head is not signed by a key the agent trusts (`--trusted-keys`; verify-branch-head.ts): nothing is applied or deleted. */
  | { type: 'unverified'; commit: string; message: string; verdict: SignatureVerdict & { ok: false } }
  | {
      type: 'objects';
      commit: string;
      message: string;
      objects: DesiredObject[];
      /** refKeys of every object file, parsed or not. */
      keys: Set<string>;
      /** The text of the hub's customizations file (core/interpret/branch-customizations.ts), when there is one. */
      customizations?: string;
      /** The text of the hub's exports file (core/mcs/provider-exports.ts), when there is one. */
      exports?: string;
      /**
       * The URL of the status repository the hub assigned (core/model/status-repository.ts);
       * absent, or an empty file: the agent's own repository.
       */
      statusRepository?: string;
      errors: { path: string; key: string | undefined; message: string }[];
    };

/**
 * Returns what the branch's head holds; `parsed` caches manifests by blob id across passes
 * (swept here, so it keeps what the last read used), and `last` is the previous read, returned
 * as it is when the head is still its commit (a commit's content never changes).
 */
export async function readClusterBranch(opts: {
  gitdir: string;
  ref: string;
  parsed: MemoMap<string, KubeObject | string>;
  last?: BranchRead;
}): Promise<BranchRead> {
  const commit = await readRef(opts.gitdir, opts.ref);
  if (commit === null) return { type: 'missing' };
  if (opts.last && opts.last.type !== 'missing' && opts.last.commit === commit) return opts.last;
  opts.parsed.sweep();
  const source = withCache({ gitdir: opts.gitdir });
  const { tree, message } = await readCommit(source, commit);
  const files = await listFiles(source, tree, '');
  if (files.has(tombstonePath)) return { type: 'tombstoned', commit, message };
  const read: Extract<BranchRead, { type: 'objects' }> = {
    type: 'objects',
    commit,
    message,
    objects: [],
    keys: new Set(),
    errors: [],
  };
  for (const [path, oid] of files) {
    if (path === branchCustomizationsPath) read.customizations = await readBlobText(source, oid, path);
    if (path === branchExportsPath) read.exports = await readBlobText(source, oid, path);
    if (path === statusRepositoryPath) {
      const url = (await readBlobText(source, oid, path)).trim();
      if (url !== '') read.statusRepository = url;
    }
    if (path.startsWith('.gitfleet/')) continue;
    const key = refKeyOfPath(path);
    if (key !== undefined) read.keys.add(key);
    let parsed = opts.parsed.get(oid);
    if (parsed === undefined) {
      parsed = parseManifest(await readBlobText(source, oid, path));
      opts.parsed.set(oid, parsed);
    }
    if (typeof parsed === 'string') read.errors.push({ path, key, message: parsed });
    else read.objects.push({ ref: refOf(parsed), path, digest: oid, manifest: parsed });
  }
  return read;
}

async function listFiles(source: ObjectSource, tree: string, prefix: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readTree(source, tree, prefix.slice(0, -1))) {
    const path = `${prefix}${entry.name}`;
    if (entry.mode === treeMode) {
      for (const [p, oid] of await listFiles(source, entry.oid, `${path}/`)) files.set(p, oid);
    } else if (path.endsWith('.yaml') || path === statusRepositoryPath) files.set(path, entry.oid);
  }
  return files;
}

/** Returns the object in a file's text, or why it is not one. */
function parseManifest(text: string): KubeObject | string {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: KUBE_YAML_SCHEMA });
  } catch (error) {
    return `not valid YAML: ${(error as Error).message.split('\n')[0]}`;
  }
  if (!isMap(doc) || typeof doc.apiVersion !== 'string' || typeof doc.kind !== 'string') {
    return 'not a Kubernetes object (no apiVersion or kind)';
  }
  if (!isMap(doc.metadata) || typeof doc.metadata.name !== 'string')
    return 'not a Kubernetes object (no metadata.name)';
  return doc as KubeObject;
}

function refOf(manifest: KubeObject): ObjectRef {
  return {
    apiVersion: manifest.apiVersion,
    kind: manifest.kind,
    namespace: manifest.metadata.namespace ?? '',
    name: manifest.metadata.name,
  };
}
