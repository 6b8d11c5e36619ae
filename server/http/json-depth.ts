/**
 * The deepest nesting of arrays and objects any request of this API may carry. Real payloads
 * are two or three levels deep (a note's attachments, a chat message's attachments); 32 is far
 * beyond them and far below what makes a walk of the parsed value costly.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, read in one pass over the text
 * with a counter: no recursion and no parse, so its cost is linear in the body's size and a
 * hostile body is refused before anything walks it. Brackets inside strings do not count.
 * Malformed text is left to the parser to refuse.
 */
export function jsonNestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}
