// `gitfleet status --watch`: print a snapshot, then another each time a gitfleet branch moves,
// until Ctrl-C. A local repository is watched through its ref files (adapters/watch, the hub's
// trigger); a remote one is fetched every interval. Either way a snapshot is printed only when
// the bindings, a cluster branch or a status branch moved since the last one printed: the
// heartbeats, which every agent renews every few seconds, are not watched, or a fleet of 50
// clusters would print without pause. A read that fails (a repository being rewritten) is
// logged on stderr (stamped, command-log.ts) and the watch goes on; `--log-level debug` adds a
// line for each look that found nothing new to print.
import { listRefs } from '../../adapters/git/list-refs.js';
import { watchLocalRefs, type RefWatcher } from '../../adapters/watch/watch-local-refs.js';
import { bindingsRef, clusterRefPrefix, statusRefPrefix } from '../../core/publish/hub-refs.js';
import { localGitdir } from '../../adapters/remote/hub-repo.js';
import { clearScreen } from '../escaping-io.js';
import type { Io } from '../io.js';
import type { Logger } from '../../loops/runtime/logger.js';

/** One snapshot's text and the branch prefix it was read under. */
export interface StatusSnapshot {
  text: string;
  branchPrefix: string;
}

export interface WatchStatusOptions {
  /** The local repository or the remote's mirror. */
  dir: string;
  /** For a remote: fetches it again; then the repository is polled every `intervalMs`. */
  refresh?: () => Promise<void>;
  intervalMs?: number;
  snapshot: () => Promise<StatusSnapshot>;
  io: Io;
  /** Where a failed read is logged (and, at debug, a look that found nothing to print). */
  log: Logger;
  /**
   * Between snapshots: `clear` the screen (stdout is a terminal), a `line` of `---` (text, YAML),
   * or `none` (JSON, one document per line).
   */
  separator: 'clear' | 'line' | 'none';
}

/** Prints snapshots until the process is interrupted; the first snapshot's error is thrown. */
export async function watchStatus(opts: WatchStatusOptions): Promise<void> {
  const gitdir = localGitdir(opts.dir);
  const first = await opts.snapshot();
  const prefix = first.branchPrefix;
  const watched = [bindingsRef(prefix), clusterRefPrefix(prefix), statusRefPrefix(prefix)];
  const fingerprint = async (): Promise<string> => {
    const parts: string[] = [];
    for (const [name, oid] of await listRefs(gitdir, `refs/heads/${prefix}`))
      if (watched.some((w) => (w.endsWith('/') ? name.startsWith(w) : name === w)))
        parts.push(`${name} ${oid}`);
    return parts.join('\n');
  };
  let printed = await fingerprint();
  let count = 0;
  const print = (text: string): void => {
    const before =
      opts.separator === 'clear' ? clearScreen : opts.separator === 'line' && count > 0 ? '---\n' : '';
    opts.io.out(before + text);
    count++;
  };
  print(first.text);

  let running: Promise<void> | undefined;
  let again = false;
  const look = async (): Promise<void> => {
    do {
      again = false;
      try {
        await opts.refresh?.();
        const now = await fingerprint();
        if (now === printed) {
          opts.log.debug?.('no bindings, cluster or status branch moved; nothing to print');
          continue;
        }
        const snap = await opts.snapshot();
        printed = now;
        print(snap.text);
      } catch (error) {
        opts.log.error(error instanceof Error ? error.message : String(error));
      }
    } while (again);
  };
  // One look at a time; a change seen during one makes it look once more when it ends.
  const schedule = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = look().finally(() => (running = undefined));
  };

  let watcher: RefWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  if (opts.refresh) timer = setInterval(schedule, opts.intervalMs ?? 10_000);
  else watcher = await watchLocalRefs({ gitdir, refs: watched, onChange: schedule });
  try {
    await opts.io.untilInterrupted();
  } finally {
    if (timer) clearInterval(timer);
    await watcher?.close();
    await running;
  }
}
