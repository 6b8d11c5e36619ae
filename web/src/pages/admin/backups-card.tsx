import { formatDistanceStrict } from 'date-fns';
import { DatabaseBackup } from 'lucide-react';
import type { TBackupRun, TBackupStatus } from '#domain/backups';
import { formatClinicTime } from '#domain/clinic-time';
import { useBackUpNow, useBackupStatus } from '../../api/settings/backups.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { LoadingBlock, Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../lib/toast.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';

const megabytes = (bytes: number | null) => (bytes === null ? '' : `, ${(bytes / 1024 ** 2).toFixed(1)} MB`);

/**
 * Admin Panel → Settings: whether the clinic's data is backed up (issue 36). The last success and
 * its age, a failure since, the schedule, and "Back up now". Where the app does not back itself
 * up (PostgreSQL, a bucket) it says who does; where nothing is scheduled it says so plainly,
 * since a clinic that never set up backups should not learn it from a failed disk.
 */
export function BackupsCard() {
  const status = useBackupStatus();
  return (
    <Card data-testid="backups">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <DatabaseBackup className="size-5" aria-hidden="true" />
          Backups
        </CardTitle>
        <CardDescription>A copy of the database and the attachments, to restore from when a disk fails or a mistake must be undone.</CardDescription>
      </CardHeader>
      {status.isPending ? (
        <CardContent>
          <LoadingBlock />
        </CardContent>
      ) : status.isError ? (
        <CardContent>
          <ErrorState title="Could not load the backups' state" error={status.error} onRetry={() => void status.refetch()} />
        </CardContent>
      ) : (
        <BackupsState status={status.data} />
      )}
    </Card>
  );
}

function BackupsState({ status }: { status: TBackupStatus }) {
  const now = useBackUpNow();
  if (status.managedBy === 'operator') {
    return (
      <CardContent>
        <p className="max-w-2xl text-sm text-slate-700" data-testid="backups-operator">
          This installation is backed up with its own tools, set up by whoever runs the server. The app cannot see those backups; ask them when the last one was
          tested.
        </p>
        {status.advice && <p className="mt-2 max-w-2xl text-sm text-slate-700">{status.advice}</p>}
      </CardContent>
    );
  }
  const backUp = () =>
    now.mutate(undefined, {
      onSuccess: () => toast({ title: 'Backup written', variant: 'success' }),
      onError: (error) => reportMutationError(error, 'The backup failed', { withReason: true }),
    });
  return (
    <>
      <CardContent className="space-y-3 text-sm">
        {status.overdue && (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 font-medium text-red-900" data-testid="backups-overdue">
            {status.lastFailure ? 'The last backup failed.' : 'A backup is overdue.'} Until one succeeds, the clinic's data is one disk failure from lost.
          </p>
        )}
        {!status.schedule && (
          <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900" data-testid="backups-unscheduled">
            No daily backup is scheduled. Whoever runs the server sets BACKUP_DIR (a disk other than the data's) to turn it on; until then only a manual
            <code className="mx-1 rounded bg-amber-100 px-1">npm run backup</code>copies the data.
          </p>
        )}
        <dl className="grid max-w-2xl grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium text-slate-900">Last successful backup</dt>
          <dd className="text-slate-700" data-testid="backups-last-success">
            {status.lastSuccess ? <RunLine run={status.lastSuccess} /> : 'None yet'}
          </dd>
          {status.lastFailure && (
            <>
              <dt className="font-medium text-slate-900">Failed since</dt>
              <dd className="break-words text-red-800" data-testid="backups-last-failure">
                <RunLine run={status.lastFailure} />: {status.lastFailure.error}
              </dd>
            </>
          )}
          <dt className="font-medium text-slate-900">Schedule</dt>
          <dd className="text-slate-700">{status.schedule ? `Every ${status.schedule.everyHours} hours, the newest ${status.schedule.keep} kept` : 'Off'}</dd>
        </dl>
      </CardContent>
      {status.schedule && (
        <CardFooter>
          <Button onClick={backUp} disabled={now.isPending}>
            {now.isPending && <Spinner className="size-4" />}
            Back up now
          </Button>
        </CardFooter>
      )}
    </>
  );
}

/** When a backup finished, how long ago, how it started and its size. */
function RunLine({ run }: { run: TBackupRun }) {
  const { timeZone } = useClinicTimeZone();
  const at = new Date(run.finishedAt);
  return (
    <>
      <time dateTime={run.finishedAt} title={formatClinicTime(at, timeZone)}>
        {formatClinicTime(at, timeZone)}
      </time>{' '}
      ({formatDistanceStrict(at, new Date(), { addSuffix: true })}, {run.trigger === 'schedule' ? 'scheduled' : 'started by hand'}
      {megabytes(run.bytes)})
    </>
  );
}
