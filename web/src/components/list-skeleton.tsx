import type { ReactNode } from 'react';

/**
 * Rows standing in while a list loads: `rows` of them, each holding `row` (the shape of that
 * list's own rows), hidden from screen readers, which hear `label` once instead. One for every
 * list of rows (appointments, lab orders, supply orders), so they load alike.
 */
export function ListSkeleton({ rows, label, testId, row }: { rows: number; label: string; testId: string; row: ReactNode }) {
  return (
    <div>
      <p role="status" className="sr-only">
        {label}
      </p>
      <ul className="space-y-3" aria-hidden="true">
        {Array.from({ length: rows }, (_, i) => (
          <li key={i} data-testid={testId} className="flex items-center gap-3 rounded-lg border bg-white p-4">
            {row}
          </li>
        ))}
      </ul>
    </div>
  );
}
