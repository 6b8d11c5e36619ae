import * as Tabs from '@radix-ui/react-tabs';
import { useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import type { TLabOrder, TLabOrderDetail, TLabView } from '#domain/labs';
import type { TServerMessage } from '#domain/live-events';
import { can } from '#domain/permissions';
import { invalidateLabInbox } from '../../api/labs/lab-inbox.ts';
import { invalidateLabOrders } from '../../api/labs/lab-orders.ts';
import { usePatient } from '../../api/patients/patient.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { clinicToday } from '#domain/clinic-time';
import { filteredPatientName, PatientFilterBar } from '../../components/patient-filter-bar.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/utils.ts';
import { useLiveMessages } from '../../live/live-provider.tsx';
import { LabInboxTab } from './lab-inbox-tab.tsx';
import { LabOrderList } from './lab-order-list.tsx';
import { LabOrderRowsSkeleton } from './lab-order-row.tsx';
import { LabOrdersHeader } from './lab-orders-header.tsx';
import { NewLabOrderDialog } from './new-lab-order-dialog.tsx';

// An order's detail (with its trend chart), the results form and the cancellation load the first
// time someone opens one: most visits only read the lists.
const LabOrderDetailDialog = lazy(async () => ({ default: (await import('./lab-order-detail-dialog.tsx')).LabOrderDetailDialog }));
const LabResultsDialog = lazy(async () => ({ default: (await import('./lab-results-dialog.tsx')).LabResultsDialog }));
const CancelLabOrderDialog = lazy(async () => ({ default: (await import('./cancel-lab-order-dialog.tsx')).CancelLabOrderDialog }));
const LabInboxDialog = lazy(async () => ({ default: (await import('./lab-inbox-dialog.tsx')).LabInboxDialog }));

/** The three lists of orders, and the lab's messages waiting for a person ('From the lab', issue 54). */
type TLabTab = TLabView | 'inbox';

const TABS: readonly { value: TLabTab; label: string }[] = [
  { value: 'outstanding', label: 'Outstanding' },
  { value: 'review', label: 'Results to review' },
  { value: 'all', label: 'All' },
  { value: 'inbox', label: 'From the lab' },
];
/** The tabs this user has: 'From the lab' only with `labs.inbox`. */
const tabsOf = (user: TCurrentUser) => TABS.filter((tab) => tab.value !== 'inbox' || can(user, 'labs.inbox'));

const TRIGGER =
  'inline-flex flex-1 items-center justify-center whitespace-nowrap rounded px-3 py-1.5 text-sm font-medium text-slate-700 transition-colors hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm sm:flex-none sm:px-4';

/** The address of the screen with a tab, a patient and an open order or lab message; the defaults are left out. */
function labOrdersHref(tab: TLabTab, patientId: string | undefined, open: { order?: string; message?: string } = {}): string {
  const params = new URLSearchParams();
  if (patientId) params.set('patientId', patientId);
  if (tab !== 'outstanding') params.set('tab', tab);
  if (open.order) params.set('order', open.order);
  if (open.message) params.set('message', open.message);
  const search = params.toString();
  return search ? `/lab-orders?${search}` : '/lab-orders';
}

/** The form or question opened from an order's detail, in its place. */
type TPanel = { kind: 'results' | 'cancel'; order: TLabOrderDetail } | null;

/**
 * /lab-orders (issue 30): Outstanding, Results to review and All, kept in the address (?tab=);
 * one patient's orders when reached with ?patientId= (the patient card's 'Lab orders'); an open
 * order's detail in ?order= (a lab notice and a chat message link there). Any change of an order
 * reaching the page live (lab_changed) reads the lists again, so a
 * critical result shows without a reload. 'From the lab' (?tab=inbox, issue 54) is the lab's
 * messages waiting for a person, one open in ?message=; the queue is read again on
 * lab_inbox_changed.
 */
export function LabOrdersPage({ user }: { user: TCurrentUser }) {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const patientId = params.get('patientId') || undefined;
  const tabs = tabsOf(user);
  const isTab = (value: string | null): value is TLabTab => tabs.some((t) => t.value === value);
  const requested = params.get('tab');
  const tab: TLabTab = isTab(requested) ? requested : 'outstanding';
  const openOrderId = params.get('order') || undefined;
  const openMessageId = tab === 'inbox' ? params.get('message') || undefined : undefined;
  const clinic = useClinicTimeZone();
  const [creating, setCreating] = useState(false);
  const [panel, setPanel] = useState<TPanel>(null);
  const queryClient = useQueryClient();
  // Every change of a lab order reaches whoever reads them live (lab_changed: ordered, collected,
  // results in, reviewed, acknowledged), and so does a change of the lab's queue
  // (lab_inbox_changed); a gap in the live connection may have hidden some: it reads everything again.
  const onLive = useCallback(
    (message: TServerMessage) => {
      if (message.type === 'lab_changed' || message.type === 'resync') void invalidateLabOrders(queryClient);
      if (message.type === 'lab_inbox_changed' || message.type === 'resync') void invalidateLabInbox(queryClient);
    },
    [queryClient],
  );
  useLiveMessages(onLive);

  const openOrder = (order: Pick<TLabOrder, 'id'>) => navigate(labOrdersHref(tab === 'inbox' ? 'all' : tab, patientId, { order: order.id }));
  const openMessage = (message: { id: string }) => navigate(labOrdersHref('inbox', patientId, { message: message.id }));
  const closeOrder = () => navigate(labOrdersHref(tab, patientId), { replace: true });
  const today = clinic.pending ? null : clinicToday(clinic.timeZone);
  const common = { timeZone: clinic.timeZone, onOpen: openOrder };
  const forPatient = patientId ? ' for this patient' : '';

  return (
    <div className="mx-auto max-w-6xl">
      <LabOrdersHeader
        actions={
          can(user, 'labs.order') && (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" />
              New Lab Order
            </Button>
          )
        }
      />

      {/* The lab's queue is the clinic's, not one patient's. */}
      {patientId && tab !== 'inbox' && <PatientFilter patientId={patientId} tab={tab} />}

      <Tabs.Root value={tab} onValueChange={(value) => isTab(value) && navigate(labOrdersHref(value, patientId), { replace: true })}>
        <Tabs.List
          aria-label="Lab order views"
          // Four tabs do not fit one row of a phone: two rows of two.
          className={cn('mb-4 w-full gap-1 rounded-md bg-slate-100 p-1 sm:inline-flex sm:w-auto', tabs.length > 3 ? 'grid grid-cols-2' : 'flex')}
        >
          {tabs.map(({ value, label }) => (
            <Tabs.Trigger key={value} value={value} className={TRIGGER}>
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {today === null ? (
          <LabOrderRowsSkeleton label="Loading lab orders" />
        ) : (
          <>
            <Tabs.Content value="outstanding" className="focus-visible:outline-none">
              <LabOrderList
                {...common}
                today={today}
                heading="Outstanding"
                order="most urgent first, then oldest"
                filter={{ view: 'outstanding', patientId }}
                loadingLabel="Loading outstanding lab orders"
                errorTitle="Could not load the outstanding lab orders"
                empty={
                  <>
                    <p className="font-medium text-slate-900">No outstanding lab orders{forPatient}</p>
                    <p>Orders waiting for a specimen or for their results show here, STAT first.</p>
                  </>
                }
              />
            </Tabs.Content>
            <Tabs.Content value="review" className="focus-visible:outline-none">
              <LabOrderList
                {...common}
                today={today}
                heading="Results to review"
                order="critical first, then abnormal, then oldest"
                filter={{ view: 'review', patientId }}
                loadingLabel="Loading results to review"
                errorTitle="Could not load the results to review"
                empty={
                  <>
                    <p className="font-medium text-slate-900">No results waiting for review{forPatient}</p>
                    <p>
                      {can(user, 'labs.reviewAny')
                        ? 'Results that come in show here until someone reviews them, critical first.'
                        : can(user, 'labs.review')
                          ? 'Results of the tests you order show here until you review them, critical first.'
                          : 'Results that come in show here until their ordering provider or an admin reviews them, critical first.'}
                    </p>
                  </>
                }
              />
            </Tabs.Content>
            <Tabs.Content value="all" className="focus-visible:outline-none">
              <LabOrderList
                {...common}
                today={today}
                heading="All lab orders"
                order="newest first"
                filter={{ view: 'all', patientId }}
                loadingLabel="Loading lab orders"
                errorTitle="Could not load the lab orders"
                empty={
                  <>
                    <p className="font-medium text-slate-900">No lab orders{forPatient} yet</p>
                    {can(user, 'labs.order') && <p>Order a test with 'New Lab Order'.</p>}
                  </>
                }
              />
            </Tabs.Content>
            {can(user, 'labs.inbox') && (
              <Tabs.Content value="inbox" className="focus-visible:outline-none">
                <LabInboxTab timeZone={clinic.timeZone} onOpen={openMessage} />
              </Tabs.Content>
            )}
          </>
        )}
      </Tabs.Root>

      <NewLabOrderDialog
        open={creating}
        patientId={patientId}
        onClose={() => setCreating(false)}
        onCreated={(order) => {
          setCreating(false);
          openOrder(order);
        }}
      />
      {openOrderId && panel === null && (
        <Suspense fallback={null}>
          <LabOrderDetailDialog
            orderId={openOrderId}
            user={user}
            timeZone={clinic.timeZone}
            today={today}
            onClose={closeOrder}
            onEnterResults={(order) => setPanel({ kind: 'results', order })}
            onCancelOrder={(order) => setPanel({ kind: 'cancel', order })}
          />
        </Suspense>
      )}
      {openMessageId && (
        <Suspense fallback={null}>
          <LabInboxDialog
            messageId={openMessageId}
            timeZone={clinic.timeZone}
            onClose={() => navigate(labOrdersHref('inbox', patientId), { replace: true })}
            onOpenOrder={(orderId) => navigate(labOrdersHref('all', patientId, { order: orderId }))}
          />
        </Suspense>
      )}
      {panel?.kind === 'results' && (
        <Suspense fallback={null}>
          <LabResultsDialog order={panel.order} timeZone={clinic.timeZone} onClose={() => setPanel(null)} />
        </Suspense>
      )}
      {panel?.kind === 'cancel' && (
        <Suspense fallback={null}>
          <CancelLabOrderDialog order={panel.order} onClose={() => setPanel(null)} />
        </Suspense>
      )}
    </div>
  );
}

/** Which patient the screen is filtered to, with her allergies, and the way back to every order. */
function PatientFilter({ patientId, tab }: { patientId: string; tab: TLabTab }) {
  const name = filteredPatientName(patientId, usePatient(patientId));
  return (
    <PatientFilterBar patientId={patientId} heading={`Lab orders for ${name}`} clearHref={labOrdersHref(tab, undefined)} clearLabel="Show all lab orders" />
  );
}
