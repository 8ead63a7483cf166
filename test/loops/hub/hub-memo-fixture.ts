// Helpers for the hub memo's tests (src/loops/hub/hub-memo.ts): a pass of a hub just restarted,
// with what it logged, and a memo file rewritten as a damaged or foreign one would be.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import { hubMemoPath } from '../../../src/loops/hub/hub-memo-file.js';
import type { HubPassResult } from '../../../src/loops/hub/hub-pass-result.js';
import type { Logger } from '../../../src/loops/runtime/logger.js';
import { hubPass, type FleetRepo } from './hub-fixture.js';

/** Returns one pass of a hub that starts now (a fresh cache, the memo on) and the lines it logged. */
export async function restartedHubPass(repo: FleetRepo): Promise<{ result: HubPassResult; lines: string[] }> {
  const lines: string[] = [];
  const log: Logger = {
    info: (m) => lines.push(m),
    warn: (m) => lines.push(`warn: ${m}`),
    error: (m) => lines.push(`error: ${m}`),
  };
  const result = await hubPass(repo, { cache: createHubPassCache(), log });
  return { result, lines };
}

/** Returns the line a pass logs when it starts from the memo. */
export function usedLine(repo: FleetRepo): string {
  return `${hubMemoPath(repo.gitdir)}: used; this pass renders what changed`;
}

/** Rewrites the memo's header and body (its parts 1 and 2) and puts a checksum that matches them. */
export function rewriteMemo(
  repo: FleetRepo,
  edit: (parts: { header: string; body: Buffer }) => { header: string; body: Buffer },
): void {
  const path = hubMemoPath(repo.gitdir);
  const data = readFileSync(path);
  const headerEnd = data.indexOf(0x0a);
  const header = data.subarray(0, headerEnd).toString('utf8');
  const body = data.subarray(headerEnd + 1, data.length - 42);
  const made = edit({ header, body });
  const content = Buffer.concat([Buffer.from(`${made.header}\n`), made.body, Buffer.from('\n')]);
  writeFileSync(
    path,
    Buffer.concat([content, Buffer.from(`${createHash('sha1').update(content).digest('hex')}\n`)]),
  );
}
