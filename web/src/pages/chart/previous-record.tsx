import { Plus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TChart } from '#domain/chart';
import { can } from '#domain/permissions';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';

const AllergyDialog = lazy(async () => ({ default: (await import('./allergy-dialog.tsx')).AllergyDialog }));
const ProblemDialog = lazy(async () => ({ default: (await import('./problem-dialog.tsx')).ProblemDialog }));
const MedicationDialog = lazy(async () => ({ default: (await import('./medication-dialog.tsx')).MedicationDialog }));

/** The three texts of the old patient form, and the list each becomes. */
export const PREVIOUS_RECORD_PARTS = [
  ['allergies', 'Allergies', 'allergy'],
  ['medicalHistory', 'Medical history', 'problem'],
  ['currentMedications', 'Current medications', 'medication'],
] as const;
type TList = (typeof PREVIOUS_RECORD_PARTS)[number][2];

/** The items a note lists, as staff write them: one per line, or separated by ';' or ','. */
const itemsOf = (text: string) =>
  text
    .split(/[;\n,]+/)
    .map((item) => item.trim().replace(/\.$/, ''))
    .filter((item) => item.length > 0 && item.length <= 200);

/**
 * The notes from her previous record (issue 51): the free text the patient form held before the
 * chart's lists, kept as written, never lost; and the way to turn them into entries: each item
 * the note lists opens the list's form with it typed in, for the catalogue to code it.
 */
export function PreviousRecord({ chart, user }: { chart: TChart; user: TCurrentUser }) {
  const [adding, setAdding] = useState<{ list: TList; name: string } | null>(null);
  const previous = chart.previousRecord;
  const parts = PREVIOUS_RECORD_PARTS.filter(([key]) => previous[key]?.trim());
  if (parts.length === 0) return null;
  const mayRecord = can(user, 'chart.record');
  const close = () => setAdding(null);
  return (
    <Card data-testid="previous-record">
      <CardHeader>
        <CardTitle>Notes from the previous record</CardTitle>
        <p className="text-sm text-slate-600">
          As written in the patient form before the chart&apos;s lists.
          {mayRecord ? ' Record each item that still holds as an entry: it opens its form with the item typed in.' : ''}
        </p>
      </CardHeader>
      <CardContent>
        <dl className="space-y-3 text-sm">
          {parts.map(([key, label, list]) => (
            <div key={key} data-testid={`previous-${key}`}>
              <dt className="font-medium text-slate-900">{label}</dt>
              <dd className="whitespace-pre-wrap break-words text-slate-700">{previous[key]}</dd>
              {mayRecord && (
                <dd className="mt-1 flex flex-wrap gap-1.5">
                  {itemsOf(previous[key]!).map((item) => (
                    <Button key={item} size="sm" variant="outline" className="h-7 px-2" onClick={() => setAdding({ list, name: item })}>
                      <Plus aria-hidden="true" />
                      <span className="sr-only">Record as {list === 'allergy' ? 'an allergy' : `a ${list}`}: </span>
                      {item}
                    </Button>
                  ))}
                </dd>
              )}
            </div>
          ))}
        </dl>
      </CardContent>
      <Suspense fallback={null}>
        {adding?.list === 'allergy' && <AllergyDialog patientId={chart.patientId} allergy={null} user={user} initialName={adding.name} onClose={close} />}
        {adding?.list === 'problem' && <ProblemDialog patientId={chart.patientId} problem={null} user={user} initialName={adding.name} onClose={close} />}
        {adding?.list === 'medication' && (
          <MedicationDialog patientId={chart.patientId} medication={null} user={user} initialName={adding.name} onClose={close} />
        )}
      </Suspense>
    </Card>
  );
}
