import { ChartLine, Paperclip, Siren } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { LAB_RESULT_SOURCE_LABELS, LAB_SEND_STATUS_LABELS } from '#domain/lab-interfaces';
import { mayReviewLab, type TLabOrderDetail, type TLabResult } from '#domain/labs';
import { useAcknowledgeLabCritical } from '../../api/labs/acknowledge-lab-critical.ts';
import { useLabOrder } from '../../api/labs/lab-order.ts';
import { formatDay, formatDayTime } from '#domain/clinic-time';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PatientAllergyBanner } from '../../components/chart/patient-allergy-banner.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { LoadingBlock, Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { sizeInKb } from '../../lib/file-size.ts';
import { cn } from '../../lib/utils.ts';
import { CriticalAlertMark, LabFlagBadge, LabPriorityBadge, LabStatusBadge } from './lab-badges.tsx';
import { formatCritical, formatReference, formatValue, flagTone, isOverdue, reviewWait } from './lab-format.ts';
import { LabOrderActions } from './lab-order-actions.tsx';
import { LabRevisions } from './lab-revisions.tsx';

// The chart's library loads only when someone asks for a trend.
const LabTrendChart = lazy(async () => ({ default: (await import('./lab-trend-chart.tsx')).LabTrendChart }));

const VALUE_TONES = { critical: 'font-bold text-red-800', abnormal: 'font-semibold text-amber-900', normal: 'text-slate-900' } as const;

/** The order's story as label and text (and a class for what needs attention): ordered, collected, results in, reviewed... */
function orderFacts(order: TLabOrderDetail, timeZone: string, today: string | null): [string, string, string?][] {
  const byWhom = (at: string, name: string | null) => `${formatDayTime(at, timeZone)}${name ? ` by ${name}` : ''}`;
  const overdue = today !== null && isOverdue(order, today);
  const waiting = order.status === 'received' && !order.reviewedAt && order.receivedAt ? reviewWait(order.receivedAt, new Date()) : null;
  const facts: [string, string, string?][] = [
    ['Ordered', byWhom(order.orderedAt, order.providerName)],
    // What a lab writes on its report and sends back (issue 54): how staff find the order when the lab calls.
    ['Order number', order.placerNumber],
  ];
  if (order.send) facts.push(sendFact(order.send, timeZone));
  const sources = [...new Set(order.resultRows.map((row) => row.source))];
  if (sources.length > 0) facts.push(['Results from', sources.map((source) => LAB_RESULT_SOURCE_LABELS[source]).join(', ')]);
  if (order.expectedOn)
    facts.push(['Expected', `${formatDay(order.expectedOn)}${overdue ? ' (overdue)' : ''}`, overdue ? 'font-semibold text-red-800' : undefined]);
  if (order.collectedAt) facts.push(['Collected', byWhom(order.collectedAt, order.collectedByName)]);
  if (order.receivedAt) facts.push(['Results in', formatDayTime(order.receivedAt, timeZone)]);
  if (waiting) facts.push(['Review', waiting.text, REVIEW_AGE_CLASS[waiting.age]]);
  if (order.reviewedAt) facts.push(['Reviewed', byWhom(order.reviewedAt, order.reviewedByName)]);
  if (order.status === 'cancelled') facts.push(['Cancelled', order.statusReason ?? 'No reason given']);
  if (order.description) facts.push(['Description', order.description]);
  return facts;
}

/**
 * Where the order's send to its lab stands (issue 54): acknowledged, still being tried, failed
 * (someone must act), or withdrawn; once the order is cancelled, where its cancellation stands.
 */
function sendFact(send: NonNullable<TLabOrderDetail['send']>, timeZone: string): [string, string, string?] {
  const label = send.orderControl === 'CA' ? 'Cancellation to lab' : 'Sent to lab';
  const status = LAB_SEND_STATUS_LABELS[send.status].toLowerCase();
  if (send.status === 'acknowledged')
    return [label, `${send.labName}: acknowledged${send.acknowledgedAt ? ` ${formatDayTime(send.acknowledgedAt, timeZone)}` : ''}`];
  if (send.status === 'withdrawn') return [label, `${send.labName}: ${status}`];
  if (send.status === 'queued') {
    const tried = send.attempts > 0 ? ` (try ${send.attempts}${send.lastError ? `; ${send.lastError}` : ''}), trying again` : '';
    return [label, `${send.labName}: ${status}${tried}`, send.attempts > 0 ? 'text-amber-900' : undefined];
  }
  return [label, `${send.labName}: ${status} — ${send.lastError ?? 'no reason given'}`, 'font-semibold text-red-800'];
}

/** A result's standing with the lab, when it is not simply final (a preliminary value may still change). */
const RESULT_STATUS_WORDS = { preliminary: 'Preliminary', corrected: 'Corrected' } as const;

const REVIEW_AGE_CLASS = { red: 'font-semibold text-red-800', amber: 'font-semibold text-amber-900', fresh: undefined } as const;

/**
 * One lab order (issue 30): its facts, an open critical alert with its acknowledgement, the
 * results with each value, unit, reference range and flag (coloured, letters and words
 * written), a trend of a numeric analyte, the lab's report text and files, the corrections,
 * and the buttons this user may press.
 */
export function LabOrderDetailDialog({
  orderId,
  user,
  timeZone,
  today,
  onClose,
  onEnterResults,
  onCancelOrder,
}: {
  orderId: string;
  user: TCurrentUser;
  timeZone: string;
  today: string | null;
  onClose: () => void;
  onEnterResults: (order: TLabOrderDetail) => void;
  onCancelOrder: (order: TLabOrderDetail) => void;
}) {
  const { data: order, isPending, isError, error, refetch } = useLabOrder(orderId);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl" data-testid="lab-order-detail">
        <DialogHeader className="pr-6">
          <DialogTitle>{order ? order.orderName : 'Lab order'}</DialogTitle>
          <DialogDescription>{order ? `For ${order.patientName}` : isPending ? 'Loading the order…' : 'The order could not be read.'}</DialogDescription>
        </DialogHeader>
        {order && <PatientAllergyBanner patientId={order.patientId} />}
        {isPending ? (
          <DetailSkeleton />
        ) : isError ? (
          <ErrorState title="Could not load this lab order" error={error} onRetry={() => void refetch()} />
        ) : (
          <OrderBody
            order={order}
            user={user}
            timeZone={timeZone}
            today={today}
            onEnterResults={() => onEnterResults(order)}
            onCancelOrder={() => onCancelOrder(order)}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function DetailSkeleton() {
  return (
    <div>
      <p role="status" className="sr-only">
        Loading the order
      </p>
      <div className="space-y-3" aria-hidden="true">
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-32 w-full" />
      </div>
    </div>
  );
}

function OrderBody({
  order,
  user,
  timeZone,
  today,
  onEnterResults,
  onCancelOrder,
}: {
  order: TLabOrderDetail;
  user: TCurrentUser;
  timeZone: string;
  today: string | null;
  onEnterResults: () => void;
  onCancelOrder: () => void;
}) {
  const [trendOf, setTrendOf] = useState<TLabResult | null>(null);
  const facts = orderFacts(order, timeZone, today);

  return (
    <div className="min-w-0 space-y-5">
      <div className="flex flex-wrap items-center gap-2">
        <LabPriorityBadge priority={order.priority} />
        <LabStatusBadge status={order.status} />
        {order.worstFlag && <LabFlagBadge flag={order.worstFlag} prefix="Worst:" />}
        {order.criticalAlertId && <CriticalAlertMark />}
      </div>

      {order.criticalAlertId && <CriticalAlert order={order} user={user} />}

      <dl className="grid gap-x-4 gap-y-1.5 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]" data-testid="lab-order-facts">
        {facts.map(([label, value, tone]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd className={cn('mb-1.5 break-words whitespace-pre-wrap text-slate-900 sm:mb-0', tone)}>{value}</dd>
          </div>
        ))}
      </dl>

      <ResultsTable order={order} trendOf={trendOf} onTrend={(row) => setTrendOf((open) => (open?.id === row.id ? null : row))} />

      {trendOf?.analyteId && (
        <Suspense fallback={<LoadingBlock />}>
          <LabTrendChart orderId={order.id} analyteId={trendOf.analyteId} name={trendOf.name} unit={trendOf.unit} range={trendOf.range} timeZone={timeZone} />
        </Suspense>
      )}

      {order.results && (
        <section aria-labelledby="lab-report-heading">
          <h3 id="lab-report-heading" className="mb-1 text-sm font-semibold text-slate-900">
            The lab's report
          </h3>
          <p data-testid="lab-report-text" className="rounded-md border bg-slate-50 p-3 text-sm break-words whitespace-pre-wrap text-slate-800">
            {order.results}
          </p>
        </section>
      )}

      {order.attachmentFiles.length > 0 && (
        <section aria-labelledby="lab-files-heading">
          <h3 id="lab-files-heading" className="mb-1 text-sm font-semibold text-slate-900">
            Report files
          </h3>
          <ul className="flex flex-wrap gap-2" data-testid="lab-attachments">
            {order.attachmentFiles.map((file, i) => (
              <li key={file.objectPath} className="min-w-0 max-w-full">
                <a
                  href={file.objectPath}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="flex items-center gap-1.5 rounded-md border bg-slate-50 px-2 py-1 text-sm text-blue-800 hover:bg-blue-50 hover:underline"
                >
                  <Paperclip className="size-3.5 shrink-0" aria-hidden="true" />
                  <span className="truncate">{file.fileName ?? `Report file ${order.attachmentFiles.length > 1 ? i + 1 : ''}`}</span>
                  {file.size !== null && <span className="shrink-0 text-slate-600">{sizeInKb(file.size)}</span>}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}

      {order.resultRows.some((row) => row.correctedAt) && <LabRevisions orderId={order.id} timeZone={timeZone} />}

      <LabOrderActions order={order} user={user} onEnterResults={onEnterResults} onCancelOrder={onCancelOrder} />
    </div>
  );
}

/** The open alert: who must acknowledge it, and the button for those who may. */
function CriticalAlert({ order, user }: { order: TLabOrderDetail; user: TCurrentUser }) {
  const acknowledge = useAcknowledgeLabCritical();
  const mayAcknowledge = mayReviewLab(user, order);
  return (
    <div data-testid="critical-alert-panel" className="flex flex-col gap-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm sm:flex-row sm:items-center">
      <Siren className="hidden size-5 shrink-0 text-red-700 sm:block" aria-hidden="true" />
      <p className="flex-1 text-red-900">
        <span className="font-semibold">A critical result is waiting to be acknowledged</span>
        {order.providerName ? ` by ${order.providerName}, who ordered it` : ''}. If nobody does, the administrators are told.
      </p>
      {mayAcknowledge && (
        <Button
          variant="destructive"
          size="sm"
          disabled={acknowledge.isPending}
          onClick={() =>
            acknowledge.mutate(order.id, {
              onSuccess: () => toast({ title: 'Critical result acknowledged', description: `${order.orderName} for ${order.patientName}`, variant: 'success' }),
              onError: (error) => void reportMutationError(error, 'Failed to acknowledge the critical result', { withReason: true }),
            })
          }
        >
          {acknowledge.isPending && <Spinner className="size-4 text-white" />}
          Acknowledge Critical
        </Button>
      )}
    </div>
  );
}

/** The results: value and unit, the reference range beside it, the flag coloured with its letters and words. */
function ResultsTable({ order, trendOf, onTrend }: { order: TLabOrderDetail; trendOf: TLabResult | null; onTrend: (row: TLabResult) => void }) {
  const captionId = useId();
  if (order.resultRows.length === 0) {
    return (
      <p data-testid="lab-no-results" className="rounded-md border border-dashed p-4 text-center text-sm text-slate-600">
        {order.status === 'cancelled' ? 'This order was cancelled before any results came in.' : 'No results yet.'}
      </p>
    );
  }
  return (
    <section aria-labelledby={captionId}>
      <h3 id={captionId} className="mb-1 text-sm font-semibold text-slate-900">
        Results
      </h3>
      <table className="w-full border-collapse text-sm" data-testid="lab-results">
        <thead>
          <tr className="border-b text-left text-xs text-slate-600">
            <th scope="col" className="py-2 pr-2 font-medium">
              Analyte
            </th>
            <th scope="col" className="py-2 pr-2 font-medium">
              Result
            </th>
            <th scope="col" className="hidden py-2 pr-2 font-medium sm:table-cell">
              Reference range
            </th>
            <th scope="col" className="hidden py-2 font-medium sm:table-cell">
              Flag
            </th>
          </tr>
        </thead>
        <tbody>
          {order.resultRows.map((row) => {
            const tone = row.flag ? flagTone(row.flag) : 'normal';
            const reference = formatReference(row.range);
            const critical = formatCritical(row.range);
            const trendable = row.analyteId !== null && row.valueNumeric !== null;
            const flag = row.flag && (
              <>
                <LabFlagBadge flag={row.flag} />
                {row.flagSource && row.flagSource !== 'computed' && (
                  <span className="ml-1 text-xs text-slate-600">{row.flagSource === 'lab' ? 'by the lab' : 'entered'}</span>
                )}
              </>
            );
            return (
              <tr
                key={row.id}
                data-testid="lab-result"
                data-name={row.name}
                data-flag={row.flag ?? ''}
                className={cn('border-b align-top', tone === 'critical' && 'bg-red-50')}
              >
                <th scope="row" className="py-2 pr-2 text-left font-medium text-slate-900">
                  <span className="break-words">{row.name}</span>
                  {reference && <span className="block text-xs font-normal text-slate-600 sm:hidden">Ref. {reference}</span>}
                  {row.resultStatus !== 'final' && (
                    <span className={cn('block text-xs font-normal', row.resultStatus === 'preliminary' ? 'font-semibold text-amber-900' : 'text-slate-600')}>
                      {RESULT_STATUS_WORDS[row.resultStatus]}
                    </span>
                  )}
                  {trendable && (
                    <div>
                      <Button
                        variant="link"
                        size="sm"
                        className="h-auto gap-1 p-0 text-xs aria-pressed:font-semibold aria-pressed:underline"
                        aria-pressed={trendOf?.id === row.id}
                        aria-label={`Trend of ${row.name}`}
                        onClick={() => onTrend(row)}
                      >
                        <ChartLine aria-hidden="true" />
                        Trend
                      </Button>
                    </div>
                  )}
                </th>
                <td className={cn('py-2 pr-2 break-words', VALUE_TONES[tone])} data-testid="lab-result-value">
                  {formatValue(row)}
                  {flag && <div className="mt-1 sm:hidden">{flag}</div>}
                </td>
                <td className="hidden py-2 pr-2 text-slate-700 sm:table-cell" data-testid="lab-result-range">
                  {reference || <span className="text-slate-500">—</span>}
                  {critical && <span className="block text-xs text-slate-600">{critical}</span>}
                </td>
                <td className="hidden py-2 sm:table-cell">{flag || <span className="text-slate-500">—</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
