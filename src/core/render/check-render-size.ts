// Sizes the API server and the hub can take, checked at render time so that an object no member
// cluster would store is an error where it is written, not an apply failure on every cluster.
//
// | bound | value | why |
// |---|---|---|
// | one object, as JSON | 1,572,864 bytes (1.5 MiB) | etcd's default request limit (`--max-request-bytes`), which the API server passes on: a larger object is refused with "request is too large" |
// | the whole render (every cluster's files) | 2 GiB | what one hub pass holds in memory and pushes; a fleet past it is split or its objects made smaller |
import type { KubeObject } from '../model/kube-object.js';
import type { ClusterOutput } from './cluster-output.js';

/** The largest object (JSON bytes) a member cluster's API server accepts by default. */
export const maxObjectBytes = 1_572_864;

/** The largest total of rendered files (bytes, over every cluster) a render may give. */
export const maxRenderBytes = 2 * 1024 * 1024 * 1024;

/**
 * Returns why an object is too large for the API server, or undefined. `yamlText` is its
 * rendered YAML: an object whose YAML is a quarter of the limit cannot pass it as JSON (JSON
 * takes at most three bytes per YAML character), which spares most objects a JSON serialization.
 */
export function checkObjectSize(object: KubeObject, yamlText: string): string | undefined {
  if (yamlText.length * 4 <= maxObjectBytes) return undefined;
  const bytes = utf8Length(JSON.stringify(object));
  if (bytes <= maxObjectBytes) return undefined;
  return (
    `${mebibytes(bytes)} rendered (${bytes.toLocaleString('en-US')} bytes of JSON), over the API ` +
    `server's 1.5 MiB object limit (etcd's default request size): make it smaller or split it`
  );
}

/** Returns whether a render's files, over every cluster, are within `limit` bytes, or why not. */
export function checkRenderTotal(
  clusters: ReadonlyMap<string, ClusterOutput>,
  limit: number = maxRenderBytes,
): { ok: true } | { ok: false; message: string } {
  // Characters first (no text is read): a UTF-8 character is at most three bytes per UTF-16 unit.
  let characters = 0;
  for (const output of clusters.values()) for (const text of output.files.values()) characters += text.length;
  if (characters * 3 <= limit) return { ok: true };
  const sizes: [string, number][] = [];
  let total = 0;
  for (const [name, output] of clusters) {
    let size = 0;
    for (const text of output.files.values()) size += utf8Length(text);
    sizes.push([name, size]);
    total += size;
  }
  if (total <= limit) return { ok: true };
  const largest = sizes
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 3)
    .map(([name, size]) => `${name} ${mebibytes(size)}`);
  return {
    ok: false,
    message:
      `render: ${mebibytes(total)} of manifests over ${sizes.length} clusters (${largest.join(', ')}), ` +
      `over the bound of ${mebibytes(limit)} a render may give: nothing is written`,
  };
}

function mebibytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

// UTF-8 length without building the bytes (the text may be megabytes). A surrogate pair is
// four bytes: its two halves count two each.
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) bytes += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : 1;
  }
  return bytes;
}
