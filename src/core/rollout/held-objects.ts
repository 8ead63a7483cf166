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
import { createHash } from 'node:crypto';

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
 * the scheduler moves replicas.
 */
export function contentDigest(files: Iterable<readonly [string, string]>): string {
  const hash = createHash('sha256');
  for (const [path, text] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    hash
      .update(path)
      .update('\0')
      .update(withoutReplicas(text, replicaFieldsOf(path)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 24);
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
