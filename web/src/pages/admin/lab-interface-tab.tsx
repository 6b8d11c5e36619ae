import { CircleCheck, CircleExclamationPoint, Network, Pencil, Plus, Send } from 'lucide-react';
import { useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TLabConnection } from '#domain/lab-interfaces';
import { useLabConnections } from '../../api/labs/lab-connections.ts';
import { useTestLabConnection, type TLabConnectionTest } from '../../api/labs/lab-connection-test.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { ListSkeleton } from '../../components/list-skeleton.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { cn } from '../../lib/utils.ts';
import { LabConnectionDialog } from './lab-interface-connection-dialog.tsx';
import { FailedLabSends } from './lab-interface-sends.tsx';

type TEditing = { connection: TLabConnection | null } | null;

const codedLabel = (count: number) => (count === 1 ? '1 test coded' : `${count} tests coded`);

/**
 * Admin Panel → Lab Interface (labs.interface, issue 54; docs/decisions/lab-interfaces.md): the
 * reference labs orders are sent to over HL7 MLLP, each with its code for the tests it performs,
 * a test message to check one answers, and the sends that failed, to send again.
 */
export function LabInterfaceTab(_props: { user: TCurrentUser }) {
  const labs = useLabConnections();
  const [editing, setEditing] = useState<TEditing>(null);
  return (
    <div className="space-y-8">
      <section aria-labelledby="lab-interface-title" className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="lab-interface-title" className="text-lg font-semibold text-slate-900">
              Lab interface
            </h2>
            <p className="max-w-2xl text-sm text-slate-600">
              The reference labs orders go to over HL7 (MLLP). An order of a test a lab has a code for is sent when it is placed, and tried again while the lab
              cannot be reached.
            </p>
          </div>
          <Button onClick={() => setEditing({ connection: null })}>
            <Plus aria-hidden="true" />
            Add lab
          </Button>
        </div>
        {labs.isPending ? (
          <ListSkeleton
            rows={2}
            label="Loading the labs"
            testId="lab-connection-skeleton"
            row={
              <div className="flex-1 space-y-2">
                <Skeleton className="h-5 w-1/3" />
                <Skeleton className="h-4 w-2/3" />
              </div>
            }
          />
        ) : labs.isError ? (
          <ErrorState title="Could not load the labs" error={labs.error} onRetry={() => void labs.refetch()} />
        ) : labs.data.length === 0 ? (
          <Card data-testid="lab-connections-empty">
            <CardContent className="p-8 text-center">
              <p className="font-semibold text-slate-900">No lab set up yet</p>
              <p className="mt-1 text-sm text-slate-600">
                Add the lab your clinic sends samples to, with its code for each test, and orders go to it by themselves.
              </p>
            </CardContent>
          </Card>
        ) : (
          <ul className="space-y-3" aria-label="Labs">
            {labs.data.map((lab) => (
              <LabRow key={lab.id} lab={lab} onEdit={() => setEditing({ connection: lab })} />
            ))}
          </ul>
        )}
      </section>
      <FailedLabSends />
      {editing && <LabConnectionDialog key={editing.connection?.id ?? 'new'} connection={editing.connection} onClose={() => setEditing(null)} />}
    </div>
  );
}

function LabRow({ lab, onEdit }: { lab: TLabConnection; onEdit: () => void }) {
  const test = useTestLabConnection();
  const [answer, setAnswer] = useState<TLabConnectionTest | null>(null);
  const receiver = [lab.receivingApplication, lab.receivingFacility].filter(Boolean).join(' at ');
  const sendTest = () => {
    setAnswer(null);
    test.mutate(lab.id, { onSuccess: setAnswer, onError: (error) => void reportMutationError(error, 'Could not send the test message', { withReason: true }) });
  };
  return (
    <li className="rounded-lg border bg-white p-4" data-testid="lab-connection" data-connection-id={lab.id}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-semibold text-slate-900">
            <Network className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
            <span className="min-w-0 break-words" data-testid="lab-connection-name">
              {lab.name}
            </span>
            {lab.isActive ? (
              <Badge className="border-green-300 bg-green-50 text-green-800">Active</Badge>
            ) : (
              <Badge className="border-slate-300 bg-slate-100 text-slate-700">Not sending</Badge>
            )}
          </p>
          {/* Each fact whole on its line; an address may break anywhere. */}
          <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-sm text-slate-700" aria-label={`About ${lab.name}`} data-testid="lab-connection-facts">
            <li className="min-w-0 break-all font-mono text-xs leading-5">
              {lab.host}:{lab.port}
            </li>
            <li className="whitespace-nowrap">{lab.messageType}</li>
            <li className="whitespace-nowrap" data-testid="lab-connection-coded">
              {codedLabel(lab.codes.length)}
            </li>
            {receiver && <li className="min-w-0 break-words">To {receiver}</li>}
          </ul>
          {lab.codes.length > 0 && (
            <p className="mt-1 text-xs break-words text-slate-500">{lab.codes.map((code) => `${code.testName} (${code.code})`).join(', ')}</p>
          )}
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={sendTest} disabled={test.isPending}>
            {test.isPending ? <Spinner className="size-4" /> : <Send aria-hidden="true" />}
            Send test message<span className="sr-only"> to {lab.name}</span>
          </Button>
          <Button variant="outline" size="sm" onClick={onEdit}>
            <Pencil aria-hidden="true" />
            Edit<span className="sr-only"> {lab.name}</span>
          </Button>
        </div>
      </div>
      {answer && <TestAnswer answer={answer} labName={lab.name} />}
    </li>
  );
}

/** What the lab answered the test message: its acknowledgement code and what it said, or why nothing came back. */
function TestAnswer({ answer, labName }: { answer: TLabConnectionTest; labName: string }) {
  const Icon = answer.ok ? CircleCheck : CircleExclamationPoint;
  const title = answer.ok
    ? `${labName} acknowledged the test message (${answer.ackCode ?? 'AA'})`
    : answer.ackCode
      ? `${labName} refused the test message (${answer.ackCode})`
      : `No answer from ${labName}`;
  return (
    <div
      role="alert"
      data-testid="lab-test-answer"
      data-ok={answer.ok}
      className={cn('mt-3 flex gap-3 rounded-md border p-3 text-sm', answer.ok ? 'border-green-300 bg-green-50' : 'border-red-200 bg-red-50')}
    >
      <Icon className={cn('mt-0.5 size-4 shrink-0', answer.ok ? 'text-green-700' : 'text-red-700')} aria-hidden="true" />
      <div className="min-w-0">
        <p className={cn('font-semibold', answer.ok ? 'text-green-900' : 'text-red-900')}>{title}</p>
        <p className={cn('break-words', answer.ok ? 'text-green-800' : 'text-red-800')}>{answer.detail}</p>
      </div>
    </div>
  );
}
