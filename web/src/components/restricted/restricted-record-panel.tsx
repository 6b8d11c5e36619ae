import { lazy, Suspense, useState } from 'react';
import { ShieldAlert } from 'lucide-react';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import type { TBreakGlassGrant } from '#domain/restricted-records';
import { useEndBreakGlass } from '../../api/patients/break-glass.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { formatTime } from '#domain/clinic-time';

// The dialog brings the second-factor proof with it; most who meet a restricted record never open it.
const EmergencyAccessDialog = lazy(async () => ({ default: (await import('./emergency-access-dialog.tsx')).EmergencyAccessDialog }));

/**
 * What someone outside a restricted record's care team sees where the record would be: that it
 * is restricted, and (for those who read patient records) the way to open it in an emergency.
 */
export function RestrictedRecordPanel({ patientId, user }: { patientId: string; user: TCurrentUser }) {
  const [asking, setAsking] = useState(false);
  return (
    <div role="status" className="flex flex-wrap items-start gap-3 rounded-lg border border-red-300 bg-red-50 p-4" data-testid="restricted-record">
      <ShieldAlert className="mt-0.5 size-5 shrink-0 text-red-700" aria-hidden="true" />
      <div className="min-w-0 flex-1 space-y-1">
        <p className="font-semibold text-red-900">Restricted patient</p>
        <p className="text-sm text-red-900">
          This record is restricted to its care team. Its name, details, notes, lab results and appointments are not shown.
        </p>
      </div>
      {can(user, 'patients.breakGlass') && (
        <Button type="button" variant="destructive" size="sm" onClick={() => setAsking(true)}>
          Emergency access
        </Button>
      )}
      {asking && (
        <Suspense fallback={null}>
          <EmergencyAccessDialog patientId={patientId} onClose={() => setAsking(false)} onGranted={() => setAsking(false)} />
        </Suspense>
      )}
    </div>
  );
}

/** While emergency access runs: whose record this is not, until when, and that it is being recorded. */
export function EmergencyAccessBanner({ grant, timeZone }: { grant: TBreakGlassGrant; timeZone: string }) {
  const until = formatTime(grant.expiresAt, timeZone);
  const end = useEndBreakGlass();
  return (
    <div
      role="status"
      className="mb-4 flex flex-wrap items-center gap-2 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900"
      data-testid="emergency-access-banner"
    >
      <ShieldAlert className="size-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0 flex-1">
        <strong>Emergency access</strong> to a restricted record until {until}. Every access is recorded and will be reviewed.
      </span>
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={end.isPending}
        onClick={() =>
          end.mutate(grant.patientId, {
            onSuccess: () => toast({ title: 'Emergency access ended', description: 'The record is closed to you again.' }),
            onError: (error) => reportMutationError(error, 'Could not end the emergency access', { withReason: true }),
          })
        }
      >
        {end.isPending && <Spinner className="size-4" />}
        End access now
      </Button>
    </div>
  );
}
