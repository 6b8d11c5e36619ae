/** A figure to one decimal, as the benches print times in ms. */
export const round1 = (x: number) => Math.round(x * 10) / 10;

/** The value at `q` (0.5, 0.95) of an ascending array: p50, p95. */
export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
