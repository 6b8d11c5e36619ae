import { describe, expect, it } from 'vitest';
import { optionalLine, optionalText, requiredLine, requiredText, ZDate, ZTimestamp } from '#domain/text';

const name = requiredLine('Name', 20);
const note = requiredText('Content', 200);
const issue = (schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } }, value: unknown) =>
  schema.safeParse(value).error?.issues[0]?.message ?? null;

describe('single-line text', () => {
  it.each([
    ['NUL', 'a\u0000b', 'Must not contain a NUL character'],
    ['BEL', 'a\u0007b', 'Must not contain control characters or line breaks'],
    ['an ESC sequence', 'a\u001b[31mb', 'Must not contain control characters or line breaks'],
    ['a line feed', 'Ann\nLee', 'Must not contain control characters or line breaks'],
    ['a carriage return', 'Ann\rLee', 'Must not contain control characters or line breaks'],
    ['a tab', 'Ann\tLee', 'Must not contain control characters or line breaks'],
    ['a C1 control', 'a\u0085b', 'Must not contain control characters or line breaks'],
    ['a line separator', 'a\u2028b', 'Must not contain control characters or line breaks'],
    ['a right-to-left override', 'a\u202Eb', 'Must not contain text-direction control characters'],
    ['a directional isolate', 'a\u2066b\u2069', 'Must not contain text-direction control characters'],
    ['a zero-width space', 'An\u200Bn', 'Must not contain invisible characters'],
    ['only zero-width spaces', '\u200B\u200B\u200B', 'Must not contain invisible characters'],
    ['a stray joiner', '\u200DAnn', 'Must not contain invisible characters'],
    ['a lone high surrogate', 'a\uD800b', 'Must be valid Unicode text'],
    ['a lone low surrogate', 'a\uDC00', 'Must be valid Unicode text'],
    ['only spaces', '   ', 'Name is required'],
    ['only punctuation-free marks', '\u0301', 'Name is required'],
    ['nothing', undefined, 'Name is required'],
    ['null', null, 'Name is required'],
    ['a number', 42, 'Expected text'],
    ['too many characters', 'x'.repeat(21), 'Must be at most 20 characters'],
  ])('refuses %s', (_label, value, message) => {
    expect(issue(name, value)).toBe(message);
  });

  it.each([
    ['a plain name', '  Ann  ', 'Ann'],
    ['an apostrophe and a hyphen', "O'Brien-Lee", "O'Brien-Lee"],
    ['accents, normalised to NFC', 'Jose\u0301', 'Jos\u00e9'],
    ['a Persian name with a zero-width non-joiner', 'مهر\u200Cناز', 'مهر\u200Cناز'],
    ['an emoji made with a joiner', 'Ann 👩\u200D⚕️', 'Ann 👩\u200D⚕️'],
    ['a character outside the basic plane', '𝒜nn', '𝒜nn'],
  ])('accepts %s', (_label, value, stored) => {
    expect(name.parse(value)).toBe(stored);
  });

  it('optional: blank or absent is null, a value is checked the same way', () => {
    const optional = optionalLine(10);
    expect(optional.parse(undefined)).toBeNull();
    expect(optional.parse(null)).toBeNull();
    expect(optional.parse('   ')).toBeNull();
    expect(optional.parse(' 555 ')).toBe('555');
    expect(issue(optional, 'a\u0000')).toBe('Must not contain a NUL character');
  });
});

describe('multi-line text', () => {
  it('keeps tabs and newlines, folds CR/LF to LF and trims the ends', () => {
    expect(note.parse('  BP 120/80\r\n\tHR 72\rok  ')).toBe('BP 120/80\n\tHR 72\nok');
  });

  it.each([
    ['NUL', 'a\u0000', 'Must not contain a NUL character'],
    ['BEL', 'a\u0007', 'Must not contain control characters'],
    ['ESC', '\u001b[2J', 'Must not contain control characters'],
    ['a right-to-left override', 'dose 10\u202E01 mg', 'Must not contain text-direction control characters'],
    ['a lone surrogate', '\uD83D', 'Must be valid Unicode text'],
    ['only newlines', '\n\n', 'Content is required'],
  ])('refuses %s', (_label, value, message) => {
    expect(issue(note, value)).toBe(message);
  });

  it('optional multi-line text is null when blank', () => {
    expect(optionalText(10).parse('\n \t')).toBeNull();
  });
});

describe('strict dates and timestamps', () => {
  it.each(['2000-01-01', '2024-02-29'])('accepts the date %s', (value) => {
    expect(ZDate.parse(value)).toBe(value);
  });

  it.each(['2000-01-01Tgarbage', '2023-02-29', '2000-13-01', '2000-1-1', ' 2000-01-01', '20000-01-01', ''])('refuses the date %j', (value) => {
    expect(ZDate.safeParse(value).success).toBe(false);
  });

  it.each([
    ['2026-03-10T09:30:00Z', '2026-03-10T09:30:00.000Z'],
    ['2026-03-10T09:30Z', '2026-03-10T09:30:00.000Z'],
    ['2026-03-10T09:30:00.123+02:00', '2026-03-10T07:30:00.123Z'],
  ])('accepts the timestamp %s as %s', (value, canonical) => {
    expect(ZTimestamp.parse(value)).toBe(canonical);
  });

  it.each([
    '0000-01-01T00:00:00Z',
    '1899-12-31T23:59:59Z',
    '3000-01-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-03-10T24:00:00Z',
    '2026-03-10T09:30:00',
    '2026-03-10 09:30:00Z',
    '2026-03-10T09:30:00Zjunk',
    'yesterday',
  ])('refuses the timestamp %j', (value) => {
    expect(ZTimestamp.safeParse(value).success).toBe(false);
  });
});
