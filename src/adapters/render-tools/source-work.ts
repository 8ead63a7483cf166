// The working directory of one source's renders: made and filled with the source's inputs on the
// first need (a source whose every render is cached never copies anything), shared by its render
// groups, removed when the source is done.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareSourceWork } from './render-source.js';
import type { SourceTree } from './source-tree.js';

/** A source's working directory, made lazily. */
export class SourceWork {
  private made: Promise<{ root: string; repo: string }> | undefined;
  private madeRoot: string | undefined;

  constructor(
    private readonly inputs: readonly string[],
    private readonly tree: SourceTree,
    /** A chart pulled from its registry, written into the folder beside the inputs. */
    private readonly pulledChart?: Buffer,
  ) {}

  /** The folder the inputs are copied into (`<root>/repo`), made on the first call. */
  async dir(): Promise<string> {
    return (await this.folders()).repo;
  }

  /** The working directory itself (its `repo` and the tool's `home`); made on the first call. */
  get root(): string {
    if (this.madeRoot === undefined) throw new Error('SourceWork.root read before dir()');
    return this.madeRoot;
  }

  /** Removes the working directory, if it was made. */
  async remove(): Promise<void> {
    if (this.made === undefined) return;
    const { root } = await this.made.catch(() => ({ root: this.madeRoot }));
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  }

  private folders(): Promise<{ root: string; repo: string }> {
    this.made ??= (async () => {
      const root = await mkdtemp(join(tmpdir(), 'gitfleet-render-'));
      this.madeRoot = root;
      const repo = await prepareSourceWork({
        inputs: this.inputs,
        tree: this.tree,
        work: root,
        pulledChart: this.pulledChart,
      });
      return { root, repo };
    })();
    return this.made;
  }
}
