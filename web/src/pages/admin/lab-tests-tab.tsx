import { FlaskConical, Pencil, Plus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TLabTest } from '#domain/labs';
import { useLabTests } from '../../api/labs/lab-tests.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';

// The editor loads the first time a test is added or edited.
const LabTestForm = lazy(async () => ({ default: (await import('./lab-test-form.tsx')).LabTestForm }));

type TEditing = { test: TLabTest | null } | null;

/**
 * The Admin Panel's Lab Tests tab (labs.catalogue, issue 30): the clinic's test catalogue, retired
 * tests included; add a test, edit one's analytes and ranges, or retire it.
 */
export function LabTestsTab(_props: { user: TCurrentUser }) {
  const tests = useLabTests();
  const [editing, setEditing] = useState<TEditing>(null);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="min-w-60 flex-1 space-y-1.5">
          <CardTitle>Lab test catalogue</CardTitle>
          <CardDescription>
            The tests staff order, their analytes and reference ranges. Results are flagged from these ranges; each result keeps the range it was flagged by.
          </CardDescription>
        </div>
        <Button onClick={() => setEditing({ test: null })}>
          <Plus aria-hidden="true" />
          Add Test
        </Button>
      </CardHeader>
      <CardContent>
        {tests.isPending ? (
          <div>
            <p role="status" className="sr-only">
              Loading the catalogue
            </p>
            <ul className="space-y-2" aria-hidden="true">
              {[0, 1, 2].map((i) => (
                <li key={i} className="rounded-md border p-3">
                  <Skeleton className="h-5 w-1/3" />
                  <Skeleton className="mt-2 h-4 w-2/3" />
                </li>
              ))}
            </ul>
          </div>
        ) : tests.isError ? (
          <ErrorState title="Could not load the test catalogue" error={tests.error} onRetry={() => void tests.refetch()} />
        ) : tests.data.length === 0 ? (
          <div
            data-testid="lab-tests-empty"
            className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-8 text-center text-sm text-slate-600"
          >
            <FlaskConical className="size-8 text-slate-400" aria-hidden="true" />
            <p className="font-medium text-slate-900">No tests in the catalogue yet</p>
            <p>Add the tests your clinic orders, with their reference ranges, so results are flagged.</p>
          </div>
        ) : (
          <ul className="divide-y rounded-md border" data-testid="lab-test-list">
            {tests.data.map((test) => (
              <li key={test.id} data-testid="lab-test-row" data-active={test.isActive} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold text-slate-900">{test.name}</span>
                    {test.loinc && <span className="text-xs text-slate-600">LOINC {test.loinc}</span>}
                    {!test.isActive && <Badge className="border-slate-300 bg-slate-100 text-slate-700">Retired</Badge>}
                  </p>
                  <p className="text-sm break-words text-slate-600">
                    {test.analytes.length} {test.analytes.length === 1 ? 'analyte' : 'analytes'}: {test.analytes.map((a) => a.name).join(', ')}
                  </p>
                </div>
                <Button variant="outline" size="sm" onClick={() => setEditing({ test })}>
                  <Pencil aria-hidden="true" />
                  Edit<span className="sr-only"> {test.name}</span>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <FormDialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        className="max-w-4xl"
        testId="lab-test-dialog"
        title={editing?.test ? 'Edit Lab Test' : 'New Lab Test'}
        description={
          editing?.test
            ? 'Changes apply to results entered from now on; results already in keep the range they were flagged by.'
            : 'Fields marked * are required.'
        }
      >
        {editing && (
          <Suspense fallback={<LoadingBlock />}>
            <LabTestForm key={editing.test?.id ?? 'new'} test={editing.test} onDone={() => setEditing(null)} />
          </Suspense>
        )}
      </FormDialog>
    </Card>
  );
}
