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
  // Karmada pops a max-heap; the comparator is a total order (names are unique), so taking
  // the maximum by a linear scan picks the same party for every seat.
  for (let remaining = options.seats; remaining > 0; remaining--) {
    let best = list[0] as Party;
    for (const party of list) if (goesFirst(party, best, options.tieBreaker)) best = party;
    best.seats++;
  }
  return list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function goesFirst(a: Party, b: Party, tieBreaker: PartyTieBreaker): boolean {
  if (a === b) return false;
  const pa = a.votes / (2 * a.seats + 1);
  const pb = b.votes / (2 * b.seats + 1);
  return pa === pb ? tieBreaker(a, b) : pa > pb;
}
