import { UserSearch } from 'lucide-react';
import { useDeferredValue, useRef, type ComponentProps, type ReactNode } from 'react';
import type { TPatient } from '#domain/patients';
import { patientCountText } from '../../lib/patient-count.ts';
import { usePatients } from '../../api/patients/patients.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/utils.ts';
import { PatientCard, PatientCardSkeleton } from './patient-card.tsx';

/** Spec section 9: six skeleton cards while loading. */
export const PATIENT_SKELETON_CARDS = 6;

// grid-cols-1 (minmax(0, 1fr)), not the implicit auto column: a long email must truncate, not widen the card.
const GRID = 'grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3';

export function PatientList({
  search,
  onEdit,
  showAccessLog,
  showChart,
  showLabOrders,
  onRestrict,
  onExport,
}: {
  search: string;
  onEdit?: (patient: TPatient) => void;
  showAccessLog?: boolean;
  showChart?: boolean;
  showLabOrders?: boolean;
  onRestrict?: ((patient: TPatient) => void) | undefined;
  onExport?: ((patient: TPatient) => void) | undefined;
}) {
  const query = usePatients(search);
  // While a new term loads, the previous results stay on screen: texts must describe those.
  const shownSearch = useRef(search);
  if (!query.isPlaceholderData && query.isSuccess) shownSearch.current = search;
  const { data, isPending, isError, error, refetch, isPlaceholderData, isFetchNextPageError } = query;

  if (isPending) {
    return (
      <div>
        <p role="status" className="sr-only">
          Loading patients
        </p>
        {/* Holds the place of the count line, so the cards do not jump when they arrive. */}
        <Skeleton className="mb-3 h-5 w-24" />
        <ul className={GRID} aria-hidden="true">
          {Array.from({ length: PATIENT_SKELETON_CARDS }, (_, i) => (
            <li key={i}>
              <PatientCardSkeleton />
            </li>
          ))}
        </ul>
      </div>
    );
  }

  // A failed first page (a search the server stopped as too slow answers 503 with its reason);
  // a failed later page keeps what is shown and offers 'Load more' again.
  if (isError && !isFetchNextPageError) {
    return <ErrorState title="Could not load patients" error={error} onRetry={() => void refetch()} />;
  }

  const patients = data.pages.flatMap((page) => page.items);
  const count = { total: data.pages[0]?.total ?? patients.length, capped: data.pages[0]?.totalCapped ?? false };

  return (
    <section aria-labelledby="patient-count" aria-busy={isPlaceholderData || undefined}>
      <p id="patient-count" role="status" className="mb-3 text-sm text-slate-600" data-testid="patient-count">
        {isPlaceholderData ? 'Searching…' : patientCountText(count, shownSearch.current)}
      </p>

      {patients.length === 0 ? (
        <EmptyState searching={shownSearch.current !== ''} />
      ) : (
        <PatientCards
          patients={patients}
          dimmed={isPlaceholderData}
          card={{ onEdit, showAccessLog, showChart, showLabOrders, onRestrict, onExport }}
          after={
            !isPlaceholderData && <LoadMore list={query} failedText="Could not load more patients." autoLoad className="mt-6" testId="patients-load-more" />
          }
        />
      )}
    </section>
  );
}

/** Cards drawn at once when the list first shows: what a phone's screen holds, and more. */
export const FIRST_PASS_CARDS = 6;

/**
 * The cards, the first few at once and the rest in a render React may interrupt (issue 56): a
 * page of cards is about 1,500 elements, and drawn in one go it was the screen's longest task on
 * a phone. `after` (the next page's loader) waits for the first full drawing, so it never takes
 * the short first pass for the end of the list; from then on it stays (a later page drawn in the
 * background must not take away the button that has the focus).
 */
function PatientCards({
  patients,
  dimmed,
  card,
  after,
}: {
  patients: TPatient[];
  dimmed: boolean;
  card: Omit<ComponentProps<typeof PatientCard>, 'patient'>;
  after: ReactNode;
}) {
  const shown = useDeferredValue(patients, patients.slice(0, FIRST_PASS_CARDS));
  const drawnWhole = useRef(false);
  if (shown === patients) drawnWhole.current = true;
  return (
    <>
      <ul className={cn(GRID, 'transition-opacity', dimmed && 'opacity-60')}>
        {shown.map((patient) => (
          <li key={patient.id} className="drawn-when-visible [--drawn-height:16rem]">
            <PatientCard patient={patient} {...card} />
          </li>
        ))}
      </ul>
      {drawnWhole.current && after}
    </>
  );
}

function EmptyState({ searching }: { searching: boolean }) {
  return (
    <Card data-testid="patients-empty">
      <CardContent className="flex flex-col items-center gap-2 p-10 text-center">
        <UserSearch className="size-10 text-slate-400" aria-hidden="true" />
        <p className="font-semibold text-slate-900">No patients found</p>
        <p className="text-sm text-slate-600">{searching ? 'Try a different search term' : 'Add your first patient to get started'}</p>
      </CardContent>
    </Card>
  );
}
