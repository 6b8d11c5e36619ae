import { useDeferredValue } from 'react';

/**
 * A query's result, for a component that draws many rows from it. TanStack Query hands each new
 * answer to React as an urgent update, which React draws in one go: a page of rows arriving was
 * one of a tablet's longest tasks (issue 56). Deferred, the rows are drawn in a render React
 * interrupts every few milliseconds to answer a tap, while what was on screen (the skeleton, or
 * the rows before) stays a moment longer.
 */
export function useDeferredQuery<T>(result: T): T {
  return useDeferredValue(result);
}
