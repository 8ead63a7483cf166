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
  const fingerprint = (): Promise<string> => fingerprintOf(gitdir, prefix, watched);
  const printed = await fingerprint();
  const print = printer(opts);
  print(first.text);
  const looks = new Looks(opts, fingerprint, print, printed);
  const schedule = (): void => looks.schedule();
  let watcher: RefWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  if (opts.refresh) timer = setInterval(schedule, opts.intervalMs ?? 10_000);
  else watcher = await watchLocalRefs({ gitdir, refs: watched, onChange: schedule });
  try {
    await opts.io.untilInterrupted();
  } finally {
    if (timer) clearInterval(timer);
    await watcher?.close();
    await looks.running;
  }
}

/** The watched branches and their heads, one line each: what a snapshot printed was read at. */
async function fingerprintOf(gitdir: string, prefix: string, watched: string[]): Promise<string> {
  const parts: string[] = [];
  for (const [name, oid] of await listRefs(gitdir, `refs/heads/${prefix}`))
    if (watched.some((w) => (w.endsWith('/') ? name.startsWith(w) : name === w)))
      parts.push(`${name} ${oid}`);
  return parts.join('\n');
}

/** Prints a snapshot after the separator the output asks for. */
function printer(opts: WatchStatusOptions): (text: string) => void {
  let count = 0;
  return (text) => {
    const before =
      opts.separator === 'clear' ? clearScreen : opts.separator === 'line' && count > 0 ? '---\n' : '';
    opts.io.out(before + text);
    count++;
  };
}

/** The looks at the branches: one at a time; a change seen during one makes it look once more when it ends. */
class Looks {
  running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly opts: WatchStatusOptions,
    private readonly fingerprint: () => Promise<string>,
    private readonly print: (text: string) => void,
    private printed: string,
  ) {}

  schedule(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.look().finally(() => (this.running = undefined));
  }

  /** Prints a snapshot when a watched branch moved since the last one printed; a failed read is logged. */
  private async look(): Promise<void> {
    const { opts } = this;
    do {
      this.again = false;
      try {
        await opts.refresh?.();
        const now = await this.fingerprint();
        if (now === this.printed) {
          opts.log.debug?.('no bindings, cluster or status branch moved; nothing to print');
          continue;
        }
        const snap = await opts.snapshot();
        this.printed = now;
        this.print(snap.text);
      } catch (error) {
        opts.log.error(error instanceof Error ? error.message : String(error));
      }
    } while (this.again);
  }
}
