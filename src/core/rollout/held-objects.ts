// What a rollout holds on a cluster, object by object (docs/rollout.md#what-is-held). The unit
// is a file of the cluster branch; its text before the pass (what the cluster runs) is compared
// with the render's:
//
// | before      | render      | change    | on a held cluster                                  |
// |-------------|-------------|-----------|----------------------------------------------------|
// | = render    |             | same      | nothing to do                                      |
// | differs only in the replicas the scheduler sets | schedule | the render (replicas move at once) |
// | differs otherwise         | content   | the text before, with the render's replicas        |
// | absent      | present     | placed    | the render, when the template existed before (the  |
// |             |             |           | scheduler placed it here); a new template: absent  |
// | present     | absent      | removed   | removed (a removal is never held)                  |
//
// The replicas are the fields Karmada revises per cluster (core/override/revise-replicas.ts):
// spec.replicas of a Deployment, ReplicaSet or StatefulSet, spec.parallelism and
// spec.completions of a Job. The render's canonical YAML writes them as one line each under the
// top-level `spec:`, so they are found and carried over line by line, without a parse.
import { textDigest, textLanes } from '../model/text-digest.js';

export type HeldChange = 'same' | 'schedule' | 'content' | 'placed' | 'removed';

/** Returns what the render changes at one path of a cluster branch. */
export function classifyChange(
  path: string,
  before: string | undefined,
  rendered: string | undefined,
  existedBefore: boolean,
): HeldChange {
  if (rendered === undefined) return before === undefined ? 'same' : 'removed';
  if (before === undefined) return existedBefore ? 'placed' : 'content';
  if (before === rendered) return 'same';
  const fields = replicaFieldsOf(path);
  if (fields.length === 0) return 'content';
  return withoutReplicas(before, fields) === withoutReplicas(rendered, fields) ? 'schedule' : 'content';
}

/**
 * Returns the text a held object keeps: the text before, with the replica lines the render has
 * (so a Divided workload's replicas still add up while its content is held).
 */
export function heldText(path: string, before: string, rendered: string | undefined): string {
  const fields = replicaFieldsOf(path);
  if (rendered === undefined || fields.length === 0) return before;
  const wanted = replicaLines(rendered, fields);
  if (wanted.size === 0) return before;
  const lines = before.split('\n');
  let inSpec = false;
  for (const [i, line] of lines.entries()) {
    if (!line.startsWith(' ')) inSpec = line === 'spec:';
    const field = inSpec ? replicaFieldOfLine(line, fields) : undefined;
    const replaced = field === undefined ? undefined : wanted.get(field);
    if (replaced !== undefined) lines[i] = replaced;
  }
  return lines.join('\n');
}

/**
 * Returns a digest of the content a strategy's objects have on one cluster (path → rendered
 * text), replica counts left out: it changes when a source commit changes the objects, not when
 * the scheduler moves replicas. It is the XOR of one digest per object (entryDigest), so a
 * caller can keep it up to date object by object, in any order.
 */
export function contentDigest(
  files: Iterable<readonly [string, string]>,
  /** The digest of one file's content (default objectDigest); a caller may remember them by text. */
  digestOf: (path: string, text: string) => string = objectDigest,
): string {
  const acc = emptyDigest();
  for (const [path, text] of files) xorInto(acc, entryDigest(path, digestOf(path, text)));
  return digestHex(acc);
}

/** Returns the digest of one object's content at a path, its replica counts left out. */
export function objectDigest(path: string, text: string): string {
  return textDigest(withoutReplicas(text, replicaFieldsOf(path)));
}

/** Returns one object's part of contentDigest: its path and content digest, hashed to 96 bits. */
export function entryDigest(path: string, digest: string): Uint32Array {
  return textLanes(`${path}\0${digest}`);
}

/** XORs `entry` into `acc` (adding an object to a digest, or taking it out again). */
export function xorInto(acc: Uint32Array, entry: Uint32Array): void {
  for (let i = 0; i < acc.length; i++) acc[i] = (acc[i]! ^ entry[i]!) >>> 0;
}

/** Returns an empty contentDigest accumulator. */
export function emptyDigest(): Uint32Array {
  return new Uint32Array(3);
}

/** Returns an accumulator's digest as text. */
export function digestHex(acc: Uint32Array): string {
  return [...acc].map((lane) => lane.toString(16).padStart(8, '0')).join('');
}

function replicaFieldsOf(path: string): readonly string[] {
  const kind = path.split('/')[1];
  if (kind === 'Deployment.apps' || kind === 'StatefulSet.apps' || kind === 'ReplicaSet.apps') return scaled;
  if (kind === 'Job.batch') return job;
  return none;
}

const scaled = ['replicas'];
const job = ['parallelism', 'completions'];
const none: string[] = [];

function replicaFieldOfLine(line: string, fields: readonly string[]): string | undefined {
  const m = /^ {2}([a-z]+): \d+$/.exec(line);
  return m && fields.includes(m[1]!) ? m[1] : undefined;
}

function replicaLines(text: string, fields: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  let inSpec = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith(' ')) inSpec = line === 'spec:';
    const field = inSpec ? replicaFieldOfLine(line, fields) : undefined;
    if (field !== undefined) found.set(field, line);
  }
  return found;
}

function withoutReplicas(text: string, fields: readonly string[]): string {
  if (fields.length === 0) return text;
  let inSpec = false;
  return text
    .split('\n')
    .filter((line) => {
      if (!line.startsWith(' ')) inSpec = line === 'spec:';
      return !(inSpec && replicaFieldOfLine(line, fields) !== undefined);
    })
    .join('\n');
}
