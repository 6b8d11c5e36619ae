import { sql, type SQL } from 'drizzle-orm';

/** A user's full name from the `users` row joined as `alias`, or null when she has none (callers fall back to her email). */
export const fullName = (alias: string): SQL => sql.raw(`nullif(concat_ws(' ', ${alias}.first_name, ${alias}.last_name), '')`);
