import { BadgeCheck, Pencil, Plus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { formatClinicTime } from '#domain/clinic-time';
import type { TPrescriber } from '#domain/prescriptions';
import { usePrescribers, useRevokeRights } from '../../api/prescriptions/prescribers.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { staffName } from '../../api/staff/staff.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';

const PrescriberDialog = lazy(async () => ({ default: (await import('./prescriber-dialog.tsx')).PrescriberDialog }));

/**
 * The Admin Panel's Prescribers tab (prescriptions.grant, issue 52): who may sign prescriptions,
 * with the license, NPI and DEA number a printed prescription carries; granted, changed,
 * revoked and granted again, each step in the audit trail.
 */
export function PrescribersTab(_props: { user: TCurrentUser }) {
  const prescribers = usePrescribers();
  const revoke = useRevokeRights();
  const { timeZone } = useClinicTimeZone();
  const [editing, setEditing] = useState<{ prescriber: TPrescriber | null } | null>(null);
  const [revoking, setRevoking] = useState<TPrescriber | null>(null);
  const confirmRevoke = () =>
    revoking &&
    revoke.mutate(revoking.userId, {
      onSuccess: (p) => {
        toast({ title: 'Prescribing rights revoked', description: staffName(p), variant: 'success' });
        setRevoking(null);
      },
      onError: (error) => reportMutationError(error, 'Failed to revoke the rights'),
    });
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="min-w-60 flex-1 space-y-1.5">
          <CardTitle>Prescribers</CardTitle>
          <CardDescription>
            Who may sign prescriptions: an admin or a nurse (a nurse practitioner) granted rights, with the credentials printed on each prescription.
          </CardDescription>
        </div>
        <Button onClick={() => setEditing({ prescriber: null })}>
          <Plus aria-hidden="true" />
          Grant Rights
        </Button>
      </CardHeader>
      <CardContent>
        {prescribers.isPending ? (
          <div role="status" aria-label="Loading the prescribers" className="space-y-2">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : prescribers.isError ? (
          <ErrorState title="Could not load the prescribers" error={prescribers.error} onRetry={() => void prescribers.refetch()} />
        ) : prescribers.data.length === 0 ? (
          <div
            data-testid="prescribers-empty"
            className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-8 text-center text-sm text-slate-600"
          >
            <BadgeCheck className="size-8 text-slate-400" aria-hidden="true" />
            <p className="font-medium text-slate-900">Nobody may sign prescriptions yet</p>
            <p>Grant rights to the clinic&apos;s physicians and nurse practitioners.</p>
          </div>
        ) : (
          <ul className="divide-y rounded-md border" data-testid="prescriber-list">
            {prescribers.data.map((p) => (
              <li key={p.userId} data-testid="prescriber-row" className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold text-slate-900">{staffName(p)}</span>
                    <span className="text-sm text-slate-600 capitalize">{p.role}</span>
                    {p.revokedAt && <Badge className="border-amber-300 bg-amber-50 text-amber-800">Revoked</Badge>}
                  </p>
                  <p className="text-sm break-words text-slate-600">
                    License {p.licenseState} {p.licenseNumber} · NPI {p.npi} · {p.deaNumber ? `DEA ${p.deaNumber}` : 'No DEA number: no controlled substances'}
                  </p>
                  {timeZone && (
                    <p className="text-xs text-slate-500">
                      {p.revokedAt
                        ? `Revoked ${formatClinicTime(p.revokedAt, timeZone)}`
                        : `Granted ${formatClinicTime(p.grantedAt, timeZone)}${p.grantedByName ? ` by ${p.grantedByName}` : ''}`}
                    </p>
                  )}
                </div>
                <div className="flex gap-2">
                  <Button variant="outline" size="sm" onClick={() => setEditing({ prescriber: p })}>
                    <Pencil aria-hidden="true" />
                    {p.revokedAt ? 'Grant again' : 'Edit'}
                    <span className="sr-only"> {staffName(p)}</span>
                  </Button>
                  {!p.revokedAt && (
                    <Button variant="outline" size="sm" onClick={() => setRevoking(p)}>
                      Revoke<span className="sr-only"> {staffName(p)}&apos;s rights</span>
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      {editing && (
        <Suspense fallback={<LoadingBlock />}>
          <PrescriberDialog key={editing.prescriber?.userId ?? 'new'} prescriber={editing.prescriber} onClose={() => setEditing(null)} />
        </Suspense>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke prescribing rights?"
        description={`${revoking ? staffName(revoking) : ''} will no longer sign prescriptions. Those already signed stay signed.`}
        confirmLabel="Revoke"
        pending={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={confirmRevoke}
      />
    </Card>
  );
}
