/** The names bench/hot-reads-server.ts seeds its patients with, and the terms bench/hot-reads.ts searches for. */

// Some first names contain "ann", so `search=ann` matches a realistic share of the rows.
export const FIRST = [
  'James',
  'Mary',
  'Anna',
  'Robert',
  'Patricia',
  'John',
  'Hannah',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Joanne',
  'Elizabeth',
  'William',
  'Susan',
  'Carlos',
  'Wei',
  'Aisha',
  'Olga',
  'Priya',
];
export const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Lopez',
  'Wilson',
  'Anderson',
  'Taylor',
  'Moore',
  'Lee',
  'Nguyen',
  'Hill',
  'Flores',
  'Young',
];

/** Every three letters found in a first or last name, lower-cased: the terms of a search that each find someone. */
export const NAME_TRIGRAMS = [
  ...new Set([...FIRST, ...LAST].flatMap((name) => Array.from({ length: name.length - 2 }, (_, i) => name.slice(i, i + 3).toLowerCase()))),
];
