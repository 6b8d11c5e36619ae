/**
 * How an email is stored and compared: trimmed, NFKC-normalised (so a full-width 'ａ' or a
 * ligature is the plain letters) and lower-cased. Two accounts never differ only by case or by
 * such a look-alike form: the database's unique index on users applies the same rule in SQL
 * (normalize(lower(normalize(email, NFKC)), NFKC)), whoever writes the row.
 */
export const emailKey = (email: string) => email.trim().normalize('NFKC').toLowerCase().normalize('NFKC');
