// The template sources' renders kept on disk between hub processes (docs/sources.md#identity-and-cache):
// one JSON file per render key (a hash of every input, so a file can never be stale), written
// atomically (a temporary file renamed over it) with mode 0600, read back only when it parses
// to the expected shape: a torn or truncated file from a killed hub is a miss, rendered again.
// After each pass the store keeps only the keys that pass used.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const KEY = /^[0-9a-f]{64}$/;

/** A directory of JSON values by render key. */
export class RenderStore {
  constructor(readonly dir: string) {}

  /** Returns the value kept under a key when it passes `check`, else undefined. */
  async get<T>(kind: string, key: string, check: (value: unknown) => value is T): Promise<T | undefined> {
    if (!KEY.test(key)) return undefined;
    try {
      const value: unknown = JSON.parse(await readFile(this.file(kind, key), 'utf8'));
      return check(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps a value under a key; a failure to write only costs a render later. */
  async put(kind: string, key: string, value: unknown): Promise<void> {
    if (!KEY.test(key)) return;
    const target = this.file(kind, key);
    const temporary = `${target}.tmp-${randomBytes(6).toString('hex')}`;
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFile(temporary, JSON.stringify(value), { mode: 0o600 });
      await rename(temporary, target);
    } catch {
      await rm(temporary, { force: true });
    }
  }

  /** Removes every file but those of the keys given (by kind). */
  async keepOnly(keys: ReadonlyMap<string, ReadonlySet<string>>): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const m = /^([a-z]+)-([0-9a-f]{64})\.json$/.exec(name);
      if (m === null || !keys.get(m[1]!)?.has(m[2]!)) await rm(join(this.dir, name), { force: true });
    }
  }

  private file(kind: string, key: string): string {
    return join(this.dir, `${kind}-${key}.json`);
  }
}
