import { fnv1a32 } from '../model/fnv1a32.js';

/** One cluster in a Webster apportionment: its weight (votes) and the replicas (seats) it holds. */
export interface Party {
  name: string;
  votes: number;
  seats: number;
}

/** Returns true when `a` should get the next seat before `b` on a tie. */
export type PartyTieBreaker = (a: Party, b: Party) => boolean;

/**
 * Returns the tie-breaker for equal Webster priorities (Karmada's tieBreakerByUID,
 * pkg/util/helper/binding.go): fewer seats first, then by name, in an order derived from the
 * object's identity so that different objects do not all favour the same cluster:
 *
 *   | FNV-1a-32 of the key | names      |
 *   |----------------------|------------|
 *   | odd                  | descending |
 *   | even, or empty key   | ascending  |
 *
 * Karmada hashes the template's UID; a Git template has none, so gitfleet hashes its refKey.
 */
export function tieBreakerByKey(key: string): PartyTieBreaker {
  const descending = key !== '' && (fnv1a32(key) & 1) === 1;
  return (a, b) => {
    if (a.seats !== b.seats) return a.seats < b.seats;
    return descending ? a.name > b.name : a.name < b.name;
  };
}
