import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allocateWebsterSeats } from '../../../src/core/schedule/allocate-webster-seats.js';
import { fnv1a32 } from '../../../src/core/model/fnv1a32.js';
import {
  tieBreakerByKey,
  type Party,
  type PartyTieBreaker,
} from '../../../src/core/schedule/tie-breaker-by-key.js';
import { seededRandom } from '../seeded-random.js';

// Two tie-break keys, one per FNV-1a parity (checked below, so the tables cannot lie).
const EVEN_KEY = 'a';
const ODD_KEY = 'b';

test('FNV-1a-32 matches the published test vectors.', () => {
  assert.equal(fnv1a32(''), 0x811c9dc5);
  assert.equal(fnv1a32('a'), 0xe40c292c);
  assert.equal(fnv1a32('foobar'), 0xbf9cf968);
});

test('The tie-break keys have the parities the tables rely on.', () => {
  assert.equal(fnv1a32(EVEN_KEY) % 2, 0);
  assert.equal(fnv1a32(ODD_KEY) % 2, 1);
});

function seats(total: number, votes: Record<string, number>, key: string): string {
  const parties = allocateWebsterSeats({
    seats: total,
    votes: new Map(Object.entries(votes)),
    tieBreaker: tieBreakerByKey(key),
  });
  return parties.map((p) => `${p.name}${p.seats}`).join(' ');
}

// Karmada's examples (pkg/util/helper/webstermethod.go), each with both tie-break parities.
const karmadaExamples: {
  name: string;
  given: { total: number; votes: Record<string, number> };
  want: { even: string; odd: string };
}[] = [
  {
    name: '9 replicas weighted 1:3 give 2 and 7.',
    given: { total: 9, votes: { A: 1, B: 3 } },
    want: { even: 'A2 B7', odd: 'A2 B7' },
  },
  {
    name: '9 replicas weighted 1:2 give 3 and 6.',
    given: { total: 9, votes: { A: 1, B: 2 } },
    want: { even: 'A3 B6', odd: 'A3 B6' },
  },
  {
    name: '10 replicas over three equal weights give the extra replica by name order.',
    given: { total: 10, votes: { A: 1, B: 1, C: 1 } },
    want: { even: 'A4 B3 C3', odd: 'A3 B3 C4' },
  },
  {
    name: '5 replicas over four equal weights give the extra replica by name order.',
    given: { total: 5, votes: { A: 1, B: 1, C: 1, D: 1 } },
    want: { even: 'A2 B1 C1 D1', odd: 'A1 B1 C1 D2' },
  },
  {
    name: '7 replicas weighted 5:2 give 5 and 2.',
    given: { total: 7, votes: { m1: 5, m2: 2 } },
    want: { even: 'm15 m22', odd: 'm15 m22' },
  },
];

for (const { name, given, want } of karmadaExamples) {
  test(`${name} (even key: names ascending)`, () => {
    assert.equal(seats(given.total, given.votes, EVEN_KEY), want.even);
  });
  test(`${name} (odd key: names descending)`, () => {
    assert.equal(seats(given.total, given.votes, ODD_KEY), want.odd);
  });
}

test('An empty key breaks ties by ascending names.', () => {
  assert.equal(seats(10, { A: 1, B: 1, C: 1 }, ''), 'A4 B3 C3');
});

test('The Sainte-Laguë example from Wikipedia gives 3, 3, 1, 1 seats for 8 seats.', () => {
  assert.equal(seats(8, { A: 100000, B: 80000, C: 30000, D: 20000 }, EVEN_KEY), 'A3 B3 C1 D1');
});

test('On equal priority the party with fewer seats goes first, before names are compared.', () => {
  // After A takes the first seat, A (3/3) and C (1/1) tie; C holds fewer seats, so C gets the
  // second seat although ascending names would favour A.
  assert.equal(seats(2, { A: 3, C: 1 }, EVEN_KEY), 'A1 C1');
});

test('Initial seats are kept and a party with seats but no votes stays in the result.', () => {
  const parties = allocateWebsterSeats({
    seats: 2,
    votes: new Map([
      ['A', 1],
      ['B', 1],
    ]),
    initial: new Map([
      ['A', 3],
      ['Z', 2],
    ]),
    tieBreaker: tieBreakerByKey(EVEN_KEY),
  });
  assert.deepEqual(
    parties.map((p) => [p.name, p.seats]),
    [
      ['A', 3],
      ['B', 2],
      ['Z', 2],
    ],
  );
});

test('No parties give no result.', () => {
  assert.deepEqual(allocateWebsterSeats({ seats: 3, votes: new Map(), tieBreaker: tieBreakerByKey('') }), []);
});

// The rule itself, seat by seat: scan every party for the highest votes / (2·seats + 1), equal
// priorities to the tie-breaker. Returns "name=seats" per party by name, and how many times two
// priorities were equal.
function referenceSeats(
  seats: number,
  votes: ReadonlyMap<string, number>,
  initial: ReadonlyMap<string, number>,
  tieBreaker: PartyTieBreaker,
): { seats: string[]; ties: number } {
  const names = [...new Set([...initial.keys(), ...votes.keys()])].sort();
  const parties: Party[] = names.map((name) => ({
    name,
    votes: votes.get(name) ?? 0,
    seats: initial.get(name) ?? 0,
  }));
  const priority = (p: Party) => p.votes / (2 * p.seats + 1);
  let ties = 0;
  for (let seat = 0; seat < seats; seat++) {
    let best = parties[0]!;
    for (const party of parties.slice(1)) {
      if (priority(party) === priority(best)) ties++;
      if (
        priority(party) > priority(best) ||
        (priority(party) === priority(best) && tieBreaker(party, best))
      ) {
        best = party;
      }
    }
    best.seats++;
  }
  return { seats: parties.map((p) => `${p.name}=${p.seats}`), ties };
}

test('500 random apportionments, ties included, match a seat-by-seat scan of every party.', () => {
  const random = seededRandom(20_240_611);
  let roundsWithTies = 0;
  for (let round = 0; round < 500; round++) {
    const votes = new Map<string, number>();
    const initial = new Map<string, number>();
    // Mostly small integer votes (0 included), so equal priorities are common; now and then
    // large ones, which rarely tie.
    const maxVotes = random(5) === 0 ? 100_000 : 6;
    for (let p = 1 + random(60); p > 0; p--) {
      const name = `m${random(1000)}`;
      if (random(8) > 0) votes.set(name, random(maxVotes));
      if (random(4) === 0) initial.set(name, random(5));
    }
    if (votes.size + initial.size === 0) votes.set('m0', 1);
    const seats = random(2001);
    const key = random(3) === 0 ? '' : `key-${random(1000)}`;
    const got = allocateWebsterSeats({ seats, votes, initial, tieBreaker: tieBreakerByKey(key) });
    const want = referenceSeats(seats, votes, initial, tieBreakerByKey(key));
    assert.deepEqual(
      got.map((p) => `${p.name}=${p.seats}`),
      want.seats,
      `round ${round}: ${seats} seats, votes ${JSON.stringify([...votes])}, initial ${JSON.stringify([...initial])}`,
    );
    if (want.ties > 0) roundsWithTies++;
  }
  assert.ok(roundsWithTies > 250, `most rounds break ties (${roundsWithTies} of 500)`);
});
