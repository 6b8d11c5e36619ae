/** `%`, `_` and `\` in a search term are literal characters, not LIKE patterns. */
export const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);
