// The reference for the git-write benchmark: the same cluster trees written by
// `git fast-import`, git's own bulk writer (one pack, deduplicated blobs, deltas).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { RenderedCluster } from './git-write-fleet.js';

/** Returns the fast-import stream that commits each cluster's files to its own branch. */
export function fastImportStream(clusters: readonly RenderedCluster[], time: number): Buffer {
  const parts: Buffer[] = [];
  for (const cluster of clusters) {
    const message = `render ${cluster.name}\n`;
    parts.push(
      Buffer.from(
        `commit refs/heads/gitfleet/clusters/${cluster.name}\n` +
          `committer gitfleet <hub@gitfleet.invalid> ${time} +0000\n` +
          `data ${Buffer.byteLength(message)}\n${message}`,
      ),
    );
    for (const [path, content] of cluster.files) {
      parts.push(
        Buffer.from(`M 100644 inline ${path}\ndata ${content.length}\n`),
        content,
        Buffer.from('\n'),
      );
    }
    parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

/** Runs fast-import on the stream into the bare repo; returns its peak RSS in KiB when measurable. */
export async function runFastImport(gitdir: string, stream: Buffer): Promise<number | null> {
  const timed = existsSync('/usr/bin/time');
  const command = timed ? '/usr/bin/time' : 'git';
  const args = [...(timed ? ['-f', 'maxrss=%M', 'git'] : []), '--git-dir', gitdir, 'fast-import', '--quiet'];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`git fast-import failed (${code}): ${stderr}`));
      const match = /maxrss=(\d+)/.exec(stderr);
      resolve(match ? Number(match[1]) : null);
    });
    child.stdin.end(stream);
  });
}
