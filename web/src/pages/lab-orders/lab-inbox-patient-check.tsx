import { CircleCheck, TriangleAlert } from 'lucide-react';
import type { TLabInboxItem } from '#domain/lab-interfaces';
import type { TChosenPatient } from '../../components/patient-picker.tsx';
import { fullName } from '../../lib/patient-format.ts';
import { cn } from '../../lib/utils.ts';

/** Names as people write them differ in case and spacing ('HART OLIVIA' is not how the record has it, but 'OLIVIA  HART' is hers). */
const sameName = (a: string, b: string) => {
  const tidy = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  return tidy(a) === tidy(b);
};

interface TLine {
  label: string;
  said: string | null;
  record: string | null;
  same: boolean;
}

/**
 * The message's patient beside the record the results would be filed to, line by line, for the
 * person to compare before filing: a line that differs (or that either side lacks, so nothing
 * can be compared) is marked and said in words, never by colour alone.
 */
export function LabInboxPatientCheck({ message, patient }: { message: Pick<TLabInboxItem, 'messagePatient' | 'messageBirthDate'>; patient: TChosenPatient }) {
  const name = fullName(patient);
  const born = patient.dateOfBirth ?? null;
  const lines: TLine[] = [
    { label: 'Name', said: message.messagePatient, record: name, same: message.messagePatient !== null && sameName(message.messagePatient, name) },
    { label: 'Born', said: message.messageBirthDate, record: born, same: message.messageBirthDate !== null && message.messageBirthDate === born },
  ];
  const differs = lines.filter((line) => !line.same);
  return (
    <div
      data-testid="lab-inbox-patient-check"
      data-mismatch={differs.length > 0}
      className={cn('rounded-md border p-3 text-sm', differs.length > 0 ? 'border-red-300 bg-red-50' : 'border-green-300 bg-green-50')}
    >
      <p className={cn('mb-2 flex items-start gap-1.5 font-semibold', differs.length > 0 ? 'text-red-900' : 'text-green-900')}>
        {differs.length > 0 ? (
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        ) : (
          <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        )}
        {differs.length > 0
          ? `The ${differs.map((line) => (line.label === 'Born' ? 'birth date' : 'name')).join(' and ')} in the message ${differs.length > 1 ? 'differ' : 'differs'} from the record: file only if you are sure it is her.`
          : 'The message’s name and birth date are the record’s.'}
      </p>
      <table className="w-full border-collapse">
        <thead>
          <tr className="text-left text-xs text-slate-700">
            <td className="w-14" />
            <th scope="col" className="pr-2 pb-1 font-medium">
              The message says
            </th>
            <th scope="col" className="pb-1 font-medium">
              The record
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.label} data-testid="lab-inbox-compare" data-field={line.label} data-same={line.same} className="align-top">
              <th scope="row" className="py-0.5 pr-2 text-left font-medium text-slate-700">
                {line.label}
              </th>
              <td className={cn('py-0.5 pr-2 break-words', !line.same && 'font-semibold text-red-900')}>
                <Value text={line.said} missing="not given" date={line.label === 'Born'} />
              </td>
              <td className={cn('py-0.5 break-words', !line.same && 'font-semibold text-red-900')}>
                <Value text={line.record} missing="none on record" date={line.label === 'Born'} />{' '}
                {!line.same && <span className="inline-block rounded bg-red-700 px-1.5 py-px text-xs font-semibold whitespace-nowrap text-white">differs</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A compared value; a date is never broken across lines (1980-05-<br>17 reads as another date). */
function Value({ text, missing, date }: { text: string | null; missing: string; date: boolean }) {
  if (text === null) return <em>{missing}</em>;
  return date ? <span className="whitespace-nowrap">{text}</span> : <>{text}</>;
}
