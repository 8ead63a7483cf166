// Which packs to merge so that a repository written one pack per pass keeps few packs at a cost
// that stays proportional to what is new. The rule is git's geometric repack (`git repack
// --geometric=<factor>`, builtin/repack.c): sorted by object count, the packs that already form
// a progression where each holds at least `factor` times the next smaller one are left alone;
// every pack below the point where the progression breaks is rolled into one, and that roll-up
// swallows each larger pack that is smaller than `factor` times it. After a roll-up there are
// at most log_factor(objects) packs, and an object is rewritten about log_factor(objects) times
// in its life, so the small packs of recent passes are cheap to fold and the first big pack is
// only rewritten once the new ones add up to a fraction of it.
//
// | packs (object counts)   | factor 2 rolls up | why                                                  |
// |-------------------------|-------------------|------------------------------------------------------|
// | 100000, 200, 200, 200   | the three 200s    | 200 < 2 x 200 breaks it; 100000 >= 2 x 600            |
// | 100000, 800, 200        | nothing           | 800 >= 2 x 200 and 100000 >= 2 x 800                  |
// | 100000, 60000, 900, 50  | all four          | 100000 < 2 x 60000 breaks it at the top; then         |
// |                         |                   | 100000 < 2 x 60950, so the roll-up swallows it too    |

/** A pack as the plan sees it: its name and how many objects it holds. */
export interface PackSize {
  name: string;
  objects: number;
}

/** Returns the names of the packs to merge into one (none, or at least two). */
export function planPackRollup(packs: readonly PackSize[], factor: number): string[] {
  if (!(factor > 1)) throw new RangeError(`the geometric factor must be above 1, not ${factor}`);
  const sorted = [...packs].sort((a, b) => a.objects - b.objects || (a.name < b.name ? -1 : 1));
  // The highest point where a pack holds less than `factor` times the next smaller one.
  let split = 0;
  for (let i = sorted.length - 1; i > 0; i--) {
    if (sorted[i]!.objects < factor * sorted[i - 1]!.objects) {
      split = i;
      break;
    }
  }
  if (split === 0) return [];
  let total = 0;
  for (let i = 0; i < split; i++) total += sorted[i]!.objects;
  // The pack where the progression broke, and any larger one the roll-up outweighs.
  while (split < sorted.length && sorted[split]!.objects < factor * total) {
    total += sorted[split]!.objects;
    split++;
  }
  return split >= 2 ? sorted.slice(0, split).map((p) => p.name) : [];
}
