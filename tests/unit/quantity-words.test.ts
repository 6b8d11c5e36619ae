import { describe, expect, it } from 'vitest';
import { quantityInWords } from '#domain/quantity-words';

describe('a quantity in words, as a prescription prints it beside the figures', () => {
  it.each([
    [0, 'zero'],
    [1, 'one'],
    [12, 'twelve'],
    [20, 'twenty'],
    [21, 'twenty-one'],
    [90, 'ninety'],
    [100, 'one hundred'],
    [115, 'one hundred fifteen'],
    [1000, 'one thousand'],
    [2460, 'two thousand four hundred sixty'],
    [10_000, 'ten thousand'],
    [7.5, 'seven point five'],
    [0.25, 'zero point two five'],
  ])('%s is %s', (n, words) => {
    expect(quantityInWords(n)).toBe(words);
  });
  it('refuses what it cannot say', () => {
    expect(() => quantityInWords(-1)).toThrow(RangeError);
    expect(() => quantityInWords(1_000_000)).toThrow(RangeError);
  });
});
