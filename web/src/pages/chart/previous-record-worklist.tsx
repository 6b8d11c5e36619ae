import { FileText, Search } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { TPreviousRecordMatch } from '#domain/chart';
import { usePreviousRecords } from '../../api/chart/previous-records.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { ListSkeleton } from '../../components/list-skeleton.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { buttonClass } from '../../components/ui/button-variants.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import { formatDateOfBirth } from '../../lib/patient-format.ts';
import { PREVIOUS_RECORD_PARTS } from './previous-record.tsx';

/** The text with each match of the words marked. */
function marked(text: string, words: string): ReactNode {
  if (!words) return text;
  const lower = text.toLowerCase();
  const needle = words.toLowerCase();
  const parts: ReactNode[] = [];
  let from = 0;
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, from)) {
    parts.push(text.slice(from, at), <mark key={at}>{text.slice(at, at + needle.length)}</mark>);
    from = at + needle.length;
  }
  parts.push(text.slice(from));
  return parts;
}

/**
 * /chart without a patient (chart.read, issue 51): the notes from previous records, searchable
 * across the clinic ('penicillin' finds every patient whose old allergy text names it), each with
 * her chart a click away, where its items are turned into coded entries.
 */
export function PreviousRecordWorklist() {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), 300);
  const searchId = useId();
  const list = usePreviousRecords(q);
  return (
    <Card data-testid="previous-record-worklist">
      <CardHeader>
        <CardTitle>Notes from previous records</CardTitle>
        <CardDescription>
          The free text the patient form held before the chart&apos;s lists, kept as written. Search it, then open a chart to record each item as an entry.
          Another patient&apos;s chart opens from the Patients screen.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="grid gap-1.5">
          <label htmlFor={searchId} className="text-sm font-medium">
            Search the notes
          </label>
          <div className="relative max-w-md">
            <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
            <Input id={searchId} type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="e.g. penicillin, asthma" className="pl-9" />
          </div>
        </div>
        {list.isPending ? (
          <ListSkeleton
            rows={3}
            label="Loading the notes from previous records"
            testId="previous-record-skeleton"
            row={
              <div className="flex-1 space-y-2">
                <Skeleton className="h-5 w-1/3" />
                <Skeleton className="h-4 w-2/3" />
              </div>
            }
          />
        ) : list.isError && !list.isFetchNextPageError ? (
          <ErrorState title="Could not load the notes from previous records" error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <Matches matches={list.data.pages.flatMap((page) => page.items)} words={q} list={list} />
        )}
      </CardContent>
    </Card>
  );
}

function Matches({ matches, words, list }: { matches: TPreviousRecordMatch[]; words: string; list: Parameters<typeof LoadMore>[0]['list'] }) {
  if (matches.length === 0)
    return (
      <div
        data-testid="previous-record-empty"
        className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-8 text-center text-sm text-slate-600"
      >
        <FileText className="size-8 text-slate-400" aria-hidden="true" />
        <p className="font-medium text-slate-900">{words ? `No notes hold “${words}”` : 'No patient has notes from a previous record'}</p>
      </div>
    );
  return (
    <div>
      <ul className="divide-y rounded-md border" data-testid="previous-record-matches">
        {matches.map((m) => (
          <li key={m.patientId} data-testid="previous-record-match" className="flex flex-col gap-2 p-3 sm:flex-row sm:items-start">
            <div className="min-w-0 flex-1 space-y-1">
              <p className="font-semibold text-slate-900">
                {m.firstName} {m.lastName}
                {m.dateOfBirth && <span className="ml-2 text-sm font-normal text-slate-600">born {formatDateOfBirth(m.dateOfBirth)}</span>}
              </p>
              <dl className="space-y-0.5 text-sm">
                {PREVIOUS_RECORD_PARTS.filter(([key]) => m[key]?.trim()).map(([key, label]) => (
                  <div key={key} className="flex flex-wrap gap-x-1.5">
                    <dt className="font-medium text-slate-700">{label}:</dt>
                    <dd className="break-words whitespace-pre-wrap text-slate-700">{marked(m[key]!, words)}</dd>
                  </div>
                ))}
              </dl>
            </div>
            <Link href={`/chart?patientId=${m.patientId}`} className={buttonClass({ variant: 'outline', size: 'sm' })}>
              Open chart<span className="sr-only"> of {`${m.firstName} ${m.lastName}`}</span>
            </Link>
          </li>
        ))}
      </ul>
      <LoadMore list={list} failedText="Could not load more patients." size="sm" className="mt-4" />
    </div>
  );
}
