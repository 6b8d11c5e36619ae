import { describe, expect, it } from 'vitest';
import { formatCents, orderTotalCents, suggestedQuantity } from '#domain/supplies';

// The reorder rule (issue 31): when on hand plus on order is at or below the reorder point, order
// up to the par level in whole packs, at least one pack; no par level, no reorder. Each expected
// quantity below is worked out by hand from that sentence, not from the code.

// [on hand, on order, reorder point, par level, pack size, units suggested or null]
const CASES: [number, number, number, number, number, number | null][] = [
  [0, 0, 5, 20, 1, 20],
  [5, 0, 5, 20, 1, 15],
  [6, 0, 5, 20, 1, null],
  [3, 0, 5, 20, 6, 18],
  [3, 0, 5, 20, 10, 20],
  [3, 0, 5, 20, 17, 17],
  [3, 0, 5, 20, 100, 100],
  [0, 0, 0, 0, 1, null],
  [0, 0, 0, 10, 1, 10],
  [1, 0, 0, 10, 1, null],
  [2, 3, 5, 20, 1, 15],
  [2, 4, 5, 20, 1, null],
  [0, 5, 5, 20, 5, 15],
  [0, 5, 5, 20, 4, 16],
  [5, 0, 5, 5, 1, 1],
  [5, 0, 5, 5, 12, 12],
  [4, 0, 5, 5, 1, 1],
  [4, 0, 5, 5, 3, 3],
  [0, 0, 5, 5, 1, 5],
  [0, 0, 5, 5, 2, 6],
  [10, 0, 10, 10, 1, 1],
  [0, 0, 1, 1, 1, 1],
  [1, 0, 1, 1, 1, 1],
  [2, 0, 1, 1, 1, null],
  [0, 0, 100, 1000, 50, 1000],
  [99, 0, 100, 1000, 50, 950],
  [100, 0, 100, 1000, 50, 900],
  [101, 0, 100, 1000, 50, null],
  [50, 50, 100, 1000, 50, 900],
  [50, 51, 100, 1000, 50, null],
  [0, 0, 10, 25, 10, 30],
  [7, 0, 10, 25, 10, 20],
  [10, 0, 10, 25, 10, 20],
  [10, 0, 10, 25, 5, 15],
  [10, 0, 10, 25, 15, 15],
  [10, 0, 10, 25, 16, 16],
  [10, 0, 10, 25, 1, 15],
  [0, 10, 10, 25, 1, 15],
  [0, 11, 10, 25, 1, null],
  [3, 3, 6, 12, 1, 6],
  [3, 3, 6, 12, 4, 8],
  [3, 3, 6, 12, 7, 7],
  [0, 0, 2, 3, 1000, 1000],
  [0, 0, 0, 1, 1, 1],
  [0, 0, 0, 1, 5, 5],
  [1, 0, 3, 8, 1, 7],
  [1, 0, 3, 8, 2, 8],
  [1, 0, 3, 8, 3, 9],
  [1, 0, 3, 8, 7, 7],
  [1, 0, 3, 8, 8, 8],
  [2, 1, 3, 8, 1, 5],
  [2, 2, 3, 8, 1, null],
  [0, 0, 5, 20, 0, 20],
  [12, 0, 12, 30, 6, 18],
  [11, 0, 12, 30, 6, 24],
  [0, 0, 50, 50, 25, 50],
  [49, 0, 50, 50, 25, 25],
  [0, 0, 3, 7, 3, 9],
  [100_000, 0, 100_000, 100_000, 10_000, 10_000],
];

describe('suggestedQuantity', () => {
  it.each(CASES)('on hand %i, on order %i, reorder at %i, par %i, packs of %i: %s', (onHand, onOrder, reorderPoint, parLevel, packSize, expected) => {
    expect(suggestedQuantity({ onHand, onOrder, reorderPoint, parLevel, packSize })).toBe(expected);
  });

  it('covers at least fifty cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(50);
  });
});

describe('money in cents', () => {
  it('totals lines exactly where floating-point dollars would not', () => {
    const lines = Array.from({ length: 10 }, () => ({ quantity: 1, unitPriceCents: 10 }));
    expect(orderTotalCents(lines)).toBe(100);
    expect(Array.from({ length: 10 }, () => 0.1).reduce((a, b) => a + b, 0)).not.toBe(1);
    expect(
      orderTotalCents([
        { quantity: 3, unitPriceCents: 1299 },
        { quantity: 7, unitPriceCents: 1 },
      ]),
    ).toBe(3904);
  });

  it('reads as the clinic writes money', () => {
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(123_456)).toBe('$1,234.56');
    expect(formatCents(2_147_483_647)).toBe('$21,474,836.47');
  });
});
