import type { UseInfiniteQueryResult, InfiniteData } from '@tanstack/react-query';
import { BookOpen, Pencil, Plus, Search } from 'lucide-react';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TConditionCode } from '#domain/condition-codes';
import type { TPage } from '#domain/paging';
import type { TFormularyItem } from '#domain/formulary';
import { useConditionCodes, useFormularyItems, type TCatalogueFilter } from '../../api/formulary/catalogue-lists.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { ListSkeleton } from '../../components/list-skeleton.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import { cn } from '../../lib/utils.ts';
import { ROUTE_LABELS } from '../../components/chart/route-labels.ts';
import { InteractionPairsCard } from './interaction-pairs-card.tsx';

// The editors load the first time one is opened.
const FormularyItemDialog = lazy(async () => ({ default: (await import('./formulary-item-dialog.tsx')).FormularyItemDialog }));
const ConditionCodeDialog = lazy(async () => ({ default: (await import('./condition-code-dialog.tsx')).ConditionCodeDialog }));

const CATALOGUES = [
  { value: 'medications', label: 'Medications', search: 'Name, RxNorm code or ATC code' },
  { value: 'conditions', label: 'Conditions', search: 'Code or title' },
] as const;
type TCatalogue = (typeof CATALOGUES)[number]['value'];
const STATUS_LABELS: Record<TCatalogueFilter['status'], string> = { active: 'Offered', retired: 'Retired', all: 'All' };
const SOURCE_LABELS: Record<TFormularyItem['source'] | TConditionCode['source'], string> = {
  starter: 'Shipped',
  icd10cm: 'Shipped',
  rxnorm: 'RxNorm import',
  clinic: 'Clinic’s own',
};

type TEditing = { catalogue: 'medications'; item: TFormularyItem | null } | { catalogue: 'conditions'; code: TConditionCode | null } | null;

/**
 * The Admin Panel's Formulary tab (formulary.manage, issue 51): the medications the chart and
 * prescriptions offer, and the problem list's ICD-10-CM codes; each searched, added, edited and
 * retired (never deleted: entries keep what they name). The RxNorm import is a command
 * (docs/decisions/clinical-chart.md); what it brought in shows here as 'RxNorm import'. Under it,
 * the clinic's own drug–drug interaction pairs (issue 52).
 */
export function FormularyTab(_props: { user: TCurrentUser }) {
  const [catalogue, setCatalogue] = useState<TCatalogue>('medications');
  const [text, setText] = useState('');
  const [status, setStatus] = useState<TCatalogueFilter['status']>('active');
  const q = useDebouncedValue(text.trim(), 300);
  const [editing, setEditing] = useState<TEditing>(null);
  const ids = { search: useId(), status: useId() };
  const shown = CATALOGUES.find((c) => c.value === catalogue)!;
  const filter = { q, status };
  const close = () => setEditing(null);

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
          <div className="min-w-60 flex-1 space-y-1.5">
            <CardTitle>Formulary and condition codes</CardTitle>
            <CardDescription>
              What the chart offers: the medications staff record (and prescribe), and the codes of the problem list. Retired entries leave the pickers;
              patients&apos; entries keep them.
            </CardDescription>
          </div>
          <Button onClick={() => setEditing(catalogue === 'medications' ? { catalogue, item: null } : { catalogue, code: null })}>
            <Plus aria-hidden="true" />
            {catalogue === 'medications' ? 'Add Medication' : 'Add Code'}
          </Button>
        </CardHeader>
        <CardContent className="space-y-4">
          <div role="group" aria-label="Catalogue" className="inline-flex rounded-md border bg-slate-50 p-0.5">
            {CATALOGUES.map((c) => (
              <button
                key={c.value}
                type="button"
                aria-pressed={catalogue === c.value}
                onClick={() => setCatalogue(c.value)}
                className={cn(
                  'rounded px-3 py-1.5 text-sm font-medium text-slate-700',
                  catalogue === c.value ? 'bg-white text-slate-900 shadow-sm' : 'hover:text-slate-900',
                )}
              >
                {c.label}
              </button>
            ))}
          </div>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <div className="grid flex-1 gap-1.5">
              <label htmlFor={ids.search} className="text-sm font-medium">
                Search {shown.label.toLowerCase()}
              </label>
              <div className="relative">
                <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
                <Input id={ids.search} type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder={shown.search} className="pl-9" />
              </div>
            </div>
            <div className="grid gap-1.5">
              <label htmlFor={ids.status} className="text-sm font-medium">
                Show
              </label>
              <select
                id={ids.status}
                value={status}
                onChange={(e) => setStatus(e.target.value as TCatalogueFilter['status'])}
                className={cn(SELECT_CLASS, 'sm:w-40')}
              >
                {Object.entries(STATUS_LABELS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {catalogue === 'medications' ? (
            <MedicationList filter={filter} onEdit={(item) => setEditing({ catalogue: 'medications', item })} />
          ) : (
            <ConditionList filter={filter} onEdit={(code) => setEditing({ catalogue: 'conditions', code })} />
          )}
        </CardContent>
        {editing && (
          <Suspense fallback={<LoadingBlock />}>
            {editing.catalogue === 'medications' ? (
              <FormularyItemDialog key={editing.item?.id ?? 'new'} item={editing.item} onClose={close} />
            ) : (
              <ConditionCodeDialog key={editing.code?.code ?? 'new'} code={editing.code} onClose={close} />
            )}
          </Suspense>
        )}
      </Card>
      {/* The interactions the prescription checks raise, between the formulary's ingredients (issue 52). */}
      <InteractionPairsCard />
    </div>
  );
}

function MedicationList({ filter, onEdit }: { filter: TCatalogueFilter; onEdit: (item: TFormularyItem) => void }) {
  return (
    <CatalogueList
      query={useFormularyItems(filter)}
      noun={['medication', 'medications']}
      testId="formulary"
      row={(item) => (
        <CatalogueRow
          key={item.id}
          title={item.name}
          details={[
            item.ingredients.length > 1 && `Ingredients: ${item.ingredients.join(', ')}`,
            item.route && ROUTE_LABELS[item.route],
            item.rxcui && `RxNorm ${item.rxcui}`,
            item.atc && `ATC ${item.atc}`,
          ]}
          badges={[item.schedule && `Schedule ${item.schedule}`, SOURCE_LABELS[item.source]]}
          retired={!item.isActive}
          onEdit={() => onEdit(item)}
        />
      )}
    />
  );
}

function ConditionList({ filter, onEdit }: { filter: TCatalogueFilter; onEdit: (code: TConditionCode) => void }) {
  return (
    <CatalogueList
      query={useConditionCodes(filter)}
      noun={['code', 'codes']}
      testId="condition-codes"
      row={(code) => (
        <CatalogueRow
          key={code.code}
          title={`${code.code} ${code.title}`}
          details={[]}
          badges={[SOURCE_LABELS[code.source]]}
          retired={!code.isActive}
          onEdit={() => onEdit(code)}
        />
      )}
    />
  );
}

/** A catalogue's page-at-a-time list: skeleton rows, an error with a retry, its empty state, 'Load more'. */
function CatalogueList<T>({
  query,
  noun,
  testId,
  row,
}: {
  query: UseInfiniteQueryResult<InfiniteData<TPage<T>>>;
  noun: [string, string];
  testId: string;
  row: (entry: T) => ReactNode;
}) {
  const { data, isPending, isError, error, refetch, isFetchNextPageError } = query;
  if (isPending)
    return (
      <ListSkeleton
        rows={4}
        label={`Loading the ${noun[1]}`}
        testId={`${testId}-skeleton`}
        row={
          <div className="flex-1 space-y-2">
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-4 w-1/3" />
          </div>
        }
      />
    );
  if (isError && !isFetchNextPageError) return <ErrorState title={`Could not load the ${noun[1]}`} error={error} onRetry={() => void refetch()} />;
  const entries = data.pages.flatMap((page) => page.items);
  const total = data.pages[0]?.total ?? entries.length;
  if (entries.length === 0)
    return (
      <div data-testid={`${testId}-empty`} className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-8 text-center text-sm text-slate-600">
        <BookOpen className="size-8 text-slate-400" aria-hidden="true" />
        <p className="font-medium text-slate-900">No {noun[1]} match</p>
        <p>Try other words, or show retired {noun[1]} too.</p>
      </div>
    );
  return (
    <div>
      <p className="mb-2 text-sm text-slate-600" data-testid={`${testId}-count`}>
        {total === entries.length ? `${total} ${total === 1 ? noun[0] : noun[1]}` : `${entries.length} of ${total} ${noun[1]}`}
      </p>
      <ul className="divide-y rounded-md border" data-testid={`${testId}-list`}>
        {entries.map(row)}
      </ul>
      <LoadMore list={query} failedText={`Could not load more ${noun[1]}.`} size="sm" className="mt-4" />
    </div>
  );
}

function CatalogueRow({
  title,
  details,
  badges,
  retired,
  onEdit,
}: {
  title: string;
  details: (string | false | null)[];
  badges: (string | false | null)[];
  retired: boolean;
  onEdit: () => void;
}) {
  const detail = details.filter(Boolean).join(' · ');
  return (
    <li data-testid="catalogue-row" data-retired={retired} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-semibold break-words text-slate-900">{title}</span>
          {badges.filter(Boolean).map((badge) => (
            <Badge key={badge as string} className="border-slate-300 bg-slate-50 text-slate-700">
              {badge}
            </Badge>
          ))}
          {retired && <Badge className="border-amber-300 bg-amber-50 text-amber-800">Retired</Badge>}
        </p>
        {detail && <p className="text-sm break-words text-slate-600">{detail}</p>}
      </div>
      <Button variant="outline" size="sm" onClick={onEdit} className="self-start sm:self-auto">
        <Pencil aria-hidden="true" />
        Edit<span className="sr-only"> {title}</span>
      </Button>
    </li>
  );
}
