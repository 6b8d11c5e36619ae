import { sql, type SQL } from 'drizzle-orm';

/**
 * The bench patients (bench/patients-search.ts, bench/fhir.ts): 30 first names, 40 last names,
 * two in three last names with one of 997 suffixes, so 'smith' matches 25,000 of a million and
 * 'garcia-742' about 17 — a clinic network's spread of common and rare names.
 */
export const FIRST_NAMES = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Carlos',
  'Karen',
  'Wei',
  'Aisha',
  'Olga',
  'Hiroshi',
  'Fatima',
  'Luca',
  'Priya',
  'Mateo',
  'Chloe',
  'Omar',
];
export const LAST_NAMES = [
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
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
];

const arr = (xs: string[]) => sql.raw(`array[${xs.map((x) => `'${x}'`).join(',')}]`);

/** Inserts the bench patients numbered from..to (inclusive), set-based. */
export const insertBenchPatients = (from: number, to: number): SQL => sql`
  insert into patients (first_name, last_name, email, phone, date_of_birth, sex, insurance_provider)
  select f, l || case when i % 3 = 0 then '' else '-' || (i % 997)::text end,
         lower(f) || '.' || lower(l) || i::text || '@example.com',
         '555-' || lpad((i % 10000)::text, 4, '0'), date '1940-01-01' + (i % 29000), (array['female', 'male'])[1 + i % 2], 'Aetna'
  from (select i, (${arr(FIRST_NAMES)})[1 + i % ${FIRST_NAMES.length}] as f, (${arr(LAST_NAMES)})[1 + (i / 7) % ${LAST_NAMES.length}] as l
        from generate_series(${from}::int, ${to}::int) as i) s`;
