// The doorbell's tokens file (`hub --notify-tokens FILE`) as the running hub holds it: read at
// start, and read again whenever the file changed (its size, modification time or inode: a
// Secret mounted by Kubernetes is replaced by a new file, not rewritten), so a token removed or
// replaced there (a leaked agent's, a cluster that left) stops opening the doorbell without a
// restart. A new text that does not parse leaves the tokens as they were, said in the outcome:
// a typo in the file never closes the doorbell to every agent at once.
import { readFile, stat } from 'node:fs/promises';
import { parseNotifyTokens, type NotifyTokens } from './notify-tokens.js';

/** What a look at the file found. */
export type NotifyTokensReload =
  { type: 'unchanged' } | { type: 'reloaded'; clusters: number } | { type: 'failed'; message: string };

/** The tokens file as the running hub holds it. */
export interface NotifyTokensFile {
  /** The tokens as last read. */
  current(): NotifyTokens;
  /** Reads the file again when it changed since the last read; never throws. */
  reload(): Promise<NotifyTokensReload>;
}

/** Reads the tokens file (throws what reading or parsing it throws) and returns it held. */
export async function notifyTokensFile(file: string): Promise<NotifyTokensFile> {
  let version = await versionOf(file);
  let tokens = parseNotifyTokens(await readFile(file, 'utf8'), file);
  let failed: string | undefined;
  return {
    current: () => tokens,
    async reload() {
      try {
        const now = await versionOf(file);
        if (now === version) return { type: 'unchanged' };
        const text = await readFile(file, 'utf8');
        version = now;
        tokens = parseNotifyTokens(text, file);
        failed = undefined;
        return { type: 'reloaded', clusters: tokens.size };
      } catch (error) {
        const message = `${(error as Error).message}; the tokens read before stay in use`;
        // Said once per version of the file, not at every look.
        if (message === failed) return { type: 'unchanged' };
        failed = message;
        return { type: 'failed', message };
      }
    },
  };
}

async function versionOf(file: string): Promise<string> {
  const s = await stat(file);
  return `${s.ino}:${s.size}:${s.mtimeMs}`;
}
