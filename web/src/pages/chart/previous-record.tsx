import type { TChart } from '#domain/chart';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';

const PARTS = [
  ['allergies', 'Allergies'],
  ['medicalHistory', 'Medical history'],
  ['currentMedications', 'Current medications'],
] as const;

/**
 * The notes from her previous record (issue 51): the free text the patient form held before the
 * chart's lists, kept as written, never lost. Only the parts that hold something are shown.
 */
export function PreviousRecord({ previous }: { previous: TChart['previousRecord'] }) {
  const parts = PARTS.filter(([key]) => previous[key]?.trim());
  if (parts.length === 0) return null;
  return (
    <Card data-testid="previous-record">
      <CardHeader>
        <CardTitle>Notes from the previous record</CardTitle>
        <p className="text-sm text-slate-600">As written in the patient form before the chart's lists. Record what still holds as entries above.</p>
      </CardHeader>
      <CardContent>
        <dl className="space-y-3 text-sm">
          {parts.map(([key, label]) => (
            <div key={key}>
              <dt className="font-medium text-slate-900">{label}</dt>
              <dd className="whitespace-pre-wrap break-words text-slate-700">{previous[key]}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
