import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';

/** The card of one list of the chart: its title and count, 'Add' for those who record, the list or its empty text. */
export function ChartListCard({
  title,
  count,
  addLabel,
  onAdd,
  empty,
  testId,
  before,
  actions,
  children,
}: {
  title: string;
  count: string;
  addLabel: string;
  /** Absent for a user who may not record. */
  onAdd: (() => void) | null;
  /** Set when the list is empty: what to say instead. */
  empty: string | null;
  testId: string;
  /** Above the list (the allergy statement's controls). */
  before?: ReactNode;
  /** More of the header's buttons, before 'Add' (the medication list's 'Prescribe'). */
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div>
          <CardTitle>{title}</CardTitle>
          <p className="text-sm text-slate-600">{count}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {actions}
          {onAdd && (
            <Button size="sm" onClick={onAdd}>
              <Plus aria-hidden="true" />
              {addLabel}
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        {before}
        {empty !== null ? (
          <p className="rounded-md border border-dashed p-4 text-center text-sm text-slate-600" data-testid={`${testId}-empty`}>
            {empty}
          </p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label={title}>
            {children}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
