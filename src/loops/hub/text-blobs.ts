// Blob ids of rendered texts (per branch: its full ref name), computed as cheaply as a pass allows:
//
// - a path whose text is the one the previous pass rendered there keeps its blob id: one
//   string comparison, no hashing (a running hub re-renders mostly what it rendered before);
// - every other text is hashed once per pass however many clusters render it (a Service that
//   fifty clusters get is one text fifty times).
//
// The previous pass's texts are kept per branch in the pass cache; a text's blob id is a pure
// function of it, so they cannot be stale.
import type { GitObject } from '../../adapters/git/git-object.js';
import { InternalError } from '../../core/model/gitfleet-error.js';
import { hashObject } from '../../adapters/git/hash-object.js';
import type { HubPassCache, RenderedText } from './hub-pass-cache.js';

/** The blob ids of one pass's texts, and the blobs to write for new ones. */
export class TextBlobs {
  private readonly hashedTexts = new Map<string, string>();
  private readonly textByOid = new Map<string, string>();
  /**
   * Blobs already made in this pass: every branch that needs a new text asks for its blob, and
   * a first pass of 1,000 clusters asked for the same text up to 1,000 times, each a fresh
   * Buffer (the writer keeps one per id anyway): most of that pass's allocation.
   */
  private readonly blobs = new Map<string, GitObject>();
  private readonly next = new Map<string, Map<string, RenderedText>>();
  /** How many distinct texts were hashed, for the pass's figures. */
  hashed = 0;

  constructor(private readonly cache: HubPassCache) {}

  /** Returns the blob id of the text rendered at a path of a branch. */
  oidAt(branch: string, path: string, text: string): string {
    let branchTexts = this.next.get(branch);
    if (!branchTexts) this.next.set(branch, (branchTexts = new Map()));
    const previous = this.cache.renderedTexts.get(branch)?.get(path);
    let oid: string;
    if (previous && previous.text === text) {
      oid = previous.oid;
      // Its blob may still be needed: the pass that rendered it may have died before writing.
      if (!this.textByOid.has(oid)) this.textByOid.set(oid, text);
    } else oid = this.hash(text);
    branchTexts.set(path, { text, oid });
    return oid;
  }

  /**
   * Keeps the branch's texts of the last pass for the next one, for a branch this pass
   * re-renders only in part (then call oidAt for the changed paths, forget for the removed).
   */
  carry(branch: string): void {
    const last = this.cache.renderedTexts.get(branch);
    if (last && !this.next.has(branch)) this.next.set(branch, last);
  }

  /** Forgets the text at a path of a branch (the path is no longer rendered). */
  forget(branch: string, path: string): void {
    this.next.get(branch)?.delete(path);
  }

  /** Returns the blob of a text this pass hashed, by its id. */
  blob(oid: string): GitObject {
    const made = this.blobs.get(oid);
    if (made) return made;
    const text = this.textByOid.get(oid);
    if (text === undefined) throw new InternalError(`${oid}: no text hashed in this pass has this id`);
    const blob: GitObject = { type: 'blob', content: Buffer.from(text, 'utf8'), oid };
    this.blobs.set(oid, blob);
    return blob;
  }

  /** Keeps this pass's texts for the next pass, in place of the previous ones. */
  remember(): void {
    this.cache.renderedTexts = this.next;
  }

  private hash(text: string): string {
    let oid = this.hashedTexts.get(text);
    if (oid === undefined) {
      oid = hashObject('blob', Buffer.from(text, 'utf8'));
      this.hashedTexts.set(text, oid);
      this.textByOid.set(oid, text);
      this.hashed++;
    }
    return oid;
  }
}
