import { MaxHeap } from './max-heap.js';
import type { Party, PartyTieBreaker } from './tie-breaker-by-key.js';

export interface AllocateWebsterSeatsOptions {
  /** Seats (replicas) to hand out on top of the initial ones. */
  seats: number;
  /** Party (cluster) name → votes (weight). */
  votes: ReadonlyMap<string, number>;
  /** Party name → seats it already holds; such a party without votes takes part with 0 votes. */
  initial?: ReadonlyMap<string, number>;
  tieBreaker: PartyTieBreaker;
}

/**
 * Returns every party with its seats after handing out `seats` one at a time by the Webster
 * (Sainte-Laguë) method, sorted by name (Karmada's AllocateWebsterSeats,
 * pkg/util/helper/webstermethod.go): each seat goes to the party with the highest
 * votes / (2·seats + 1); equal priorities go to the tie-breaker. Priorities are IEEE-754
 * doubles in Go and here alike, so ties (1/3 vs 3/9) fall the same way.
 */
export function allocateWebsterSeats(options: AllocateWebsterSeatsOptions): Party[] {
  const parties = new Map<string, Party>();
  for (const [name, seats] of options.initial ?? []) parties.set(name, { name, votes: 0, seats });
  for (const [name, votes] of options.votes) {
    const party = parties.get(name);
    parties.set(name, { name, votes, seats: party?.seats ?? 0 });
  }
  const list = [...parties.values()];
  if (list.length === 0) return [];
  // Karmada pops a max-heap too; the order is total (names are unique), so any heap hands
  // every seat to the same party: O(log parties) a seat instead of a scan of all parties.
  const heap = new MaxHeap(
    list.map((party): Bid => ({ party, priority: priorityOf(party) })),
    (a, b) => goesFirst(a, b, options.tieBreaker),
  );
  for (let remaining = options.seats; remaining > 0; remaining--) {
    const top = heap.peek() as Bid;
    top.party.seats++;
    top.priority = priorityOf(top.party);
    heap.replaceTop(top);
  }
  return list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A party in the heap with its Webster priority, kept up to date as it takes seats. */
interface Bid {
  party: Party;
  priority: number;
}

function priorityOf(party: Party): number {
  return party.votes / (2 * party.seats + 1);
}

function goesFirst(a: Bid, b: Bid, tieBreaker: PartyTieBreaker): boolean {
  return a.priority === b.priority ? tieBreaker(a.party, b.party) : a.priority > b.priority;
}
