import { useEffect, useState } from 'react';
import { ShieldAlert } from 'lucide-react';
import { Link } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { formatClinicTime } from '#domain/clinic-time';
import { BREAK_GLASS_DISPOSITIONS, BREAK_GLASS_REASON_LABELS, type TBreakGlassDisposition } from '#domain/record-scope';
import { BREAK_GLASS_HOLD_TEXT, breakGlassReviewHold, type TBreakGlassGrant } from '#domain/restricted-records';
import { ROLE_LABELS } from '#domain/roles';
import { useBreakGlassQueue, useReviewBreakGlass, type TQueueStatus } from '../../api/restricted/break-glass-queue.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { Label } from '../../components/ui/label.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { LoadingBlock, Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { adminHref } from '../../lib/admin-tabs.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';

const DISPOSITION_LABELS: Record<TBreakGlassDisposition, string> = {
  appropriate: 'Appropriate',
  inappropriate: 'Inappropriate',
  follow_up: 'Follow-up needed',
};

/**
 * Admin Panel → Emergency Access (issue 33): every break-glass use, waiting for an admin to
 * close it with a disposition. Each says who, which restricted record (by its reference, not its
 * name), why, for how long, and how many accesses it recorded, with the audit trail a click away.
 */
export function EmergencyAccessTab({ user }: { user: TCurrentUser }) {
  const [status, setStatus] = useState<TQueueStatus>('open');
  const queue = useBreakGlassQueue(status);
  const { timeZone } = useClinicTimeZone();
  return (
    <section aria-labelledby="glass-title" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="glass-title" className="text-lg font-semibold text-slate-900">
            Emergency access
          </h2>
          <p className="text-sm text-slate-600">Each time someone opened a restricted record by break-glass. Close each with a disposition.</p>
        </div>
        <div className="space-y-1">
          <Label htmlFor="glass-status">Show</Label>
          <select id="glass-status" className={SELECT_CLASS} value={status} onChange={(event) => setStatus(event.target.value as TQueueStatus)}>
            <option value="open">Waiting for review</option>
            <option value="closed">Reviewed</option>
            <option value="all">All</option>
          </select>
        </div>
      </div>
      {queue.isPending || !timeZone ? (
        <LoadingBlock />
      ) : queue.isError ? (
        <ErrorState title="Could not load the emergency accesses" error={queue.error} onRetry={() => void queue.refetch()} />
      ) : queue.data.length === 0 ? (
        <Card data-testid="glass-empty">
          <CardContent className="p-8 text-center">
            <p className="font-semibold text-slate-900">{status === 'open' ? 'Nothing waiting for review' : 'No emergency access yet'}</p>
          </CardContent>
        </Card>
      ) : (
        <ul className="space-y-3">
          {queue.data.map((grant) => (
            <GrantCard key={grant.id} grant={grant} timeZone={timeZone} reviewerId={user.id} />
          ))}
        </ul>
      )}
    </section>
  );
}

function GrantCard({ grant, timeZone, reviewerId }: { grant: TBreakGlassGrant; timeZone: string; reviewerId: string }) {
  const review = useReviewBreakGlass();
  const [disposition, setDisposition] = useState<TBreakGlassDisposition | ''>('');
  const [note, setNote] = useState('');
  // The server decides (the same rule); this only says why there is nothing to do here yet. The
  // card is drawn again when the access runs out, so its review opens then without a reload.
  const [, redraw] = useState(0);
  useEffect(() => {
    const wait = Date.parse(grant.expiresAt) - Date.now();
    if (wait <= 0 || wait > 2 ** 31 - 1) return;
    const timer = setTimeout(() => redraw((n) => n + 1), wait + 250);
    return () => clearTimeout(timer);
  }, [grant.expiresAt]);
  const hold = breakGlassReviewHold(grant, reviewerId, new Date());
  const close = () => {
    if (!disposition) return;
    review.mutate(
      { id: grant.id, disposition, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: () => toast({ title: 'Review closed', description: DISPOSITION_LABELS[disposition], variant: 'success' }),
        onError: (error) => reportMutationError(error, 'Could not close the review', { withReason: true }),
      },
    );
  };
  return (
    <li className="rounded-lg border bg-white p-4" data-testid="glass-grant">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="flex items-center gap-2 font-semibold text-slate-900">
          <ShieldAlert className="size-4 text-red-700" aria-hidden="true" />
          {grant.user.name} <span className="font-normal text-slate-600">· {ROLE_LABELS[grant.user.role]}</span>
        </p>
        <Link href={adminHref('audit', { patientId: grant.patientId })} className="text-sm font-medium text-blue-800 underline underline-offset-2">
          {grant.patientRef}: {grant.accesses} {grant.accesses === 1 ? 'access' : 'accesses'} in the audit trail
        </Link>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {BREAK_GLASS_REASON_LABELS[grant.reason]} · {formatClinicTime(grant.startedAt, timeZone)} until {formatClinicTime(grant.expiresAt, timeZone)}
      </p>
      <blockquote className="mt-2 border-l-2 border-slate-300 pl-3 text-sm text-slate-800">{grant.justification}</blockquote>
      {grant.reviewedAt ? (
        <p className="mt-3 text-sm text-slate-700" data-testid="glass-reviewed">
          {DISPOSITION_LABELS[grant.disposition!]}, by {grant.reviewedBy} on {formatClinicTime(grant.reviewedAt, timeZone)}
          {grant.reviewNote ? `: ${grant.reviewNote}` : ''}
        </p>
      ) : hold ? (
        <p className="mt-3 text-sm font-medium text-amber-900" data-testid="glass-hold">
          {BREAK_GLASS_HOLD_TEXT[hold]}
        </p>
      ) : (
        <div className="mt-3 grid gap-3 sm:grid-cols-[12rem_1fr_auto] sm:items-end">
          <div className="space-y-1">
            <Label htmlFor={`disposition-${grant.id}`}>Disposition</Label>
            <select
              id={`disposition-${grant.id}`}
              className={SELECT_CLASS}
              value={disposition}
              onChange={(event) => setDisposition(event.target.value as TBreakGlassDisposition)}
            >
              <option value="">Choose</option>
              {BREAK_GLASS_DISPOSITIONS.map((d) => (
                <option key={d} value={d}>
                  {DISPOSITION_LABELS[d]}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1">
            <Label htmlFor={`note-${grant.id}`}>Note (optional)</Label>
            <Textarea id={`note-${grant.id}`} rows={1} maxLength={2000} value={note} onChange={(event) => setNote(event.target.value)} />
          </div>
          <Button type="button" onClick={close} disabled={!disposition || review.isPending}>
            {review.isPending && <Spinner className="size-4 text-white" />}
            Close review
          </Button>
        </div>
      )}
    </li>
  );
}
