import type { Path } from 'react-hook-form';
import type { TFileLabInbox, TLabInboxDetail } from '#domain/lab-interfaces';
import { formatDate } from '#domain/clinic-time';
import { useLabOrders } from '../../api/labs/lab-orders.ts';
import { LoadMore } from '../../components/load-more.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import type { TAppForm } from '../../lib/use-app-form.ts';
import type { TChosenPatient } from '../../components/patient-picker.tsx';

export interface TFileValues {
  patient: TChosenPatient | null;
  /** Per report, in the message's order: '' (not chosen yet), an order's id, or NEW_ORDER. */
  targets: string[];
}

/** A report's choice of a new order for the patient, named after the report's test by the server. */
export const NEW_ORDER = 'new';

/**
 * For each report of the message, where it goes: one of the patient's open orders (the one whose
 * placer number the lab sent is said so), or a new order for her. Her orders are read a page at a
 * time, like the lists.
 */
export function LabInboxReportTargets({
  form,
  message,
  patientId,
  timeZone,
  disabled,
}: {
  form: TAppForm<TFileValues, TFileLabInbox>;
  message: TLabInboxDetail;
  patientId: string;
  timeZone: string;
  disabled: boolean;
}) {
  const orders = useLabOrders({ view: 'outstanding', patientId });
  const open = orders.data?.pages.flatMap((page) => page.items) ?? [];
  const {
    register,
    formState: { errors },
  } = form;

  return (
    <fieldset className="space-y-3" data-testid="lab-inbox-targets">
      <legend className="mb-1 text-sm font-semibold text-slate-900">Where each report goes</legend>
      {orders.isError && (
        <p role="status" className="text-sm text-red-800">
          Her open orders could not be read: a new order is still offered, or close and try again.
        </p>
      )}
      {!orders.isPending && !orders.isError && open.length === 0 && (
        <p className="text-sm text-slate-600" data-testid="lab-inbox-no-orders">
          She has no open lab orders: each report can go to a new order for her.
        </p>
      )}
      {message.groups.map((group, i) => (
        <FormField
          key={i}
          id={`lab-inbox-target-${i}`}
          label={`Report ${i + 1}: ${group.testName || 'Unnamed test'}`}
          hint={group.placerNumber ? `The lab sent placer number ${group.placerNumber}.` : 'The lab sent no placer number.'}
          required
          error={errors.targets?.[i]?.message}
          testId={`targets.${i}`}
        >
          {(control) => (
            <select
              {...control}
              className={SELECT_CLASS}
              {...register(`targets.${i}` as Path<TFileValues>)}
              disabled={disabled}
              aria-busy={orders.isPending || undefined}
            >
              <option value="">{orders.isPending ? 'Loading her orders…' : 'Choose an order'}</option>
              {open.map((order) => (
                <option key={order.id} value={order.id}>
                  {`${order.orderName} · ${order.placerNumber} · ordered ${formatDate(order.orderedAt, timeZone)}`}
                  {group.placerNumber === order.placerNumber ? ' (the placer number sent)' : ''}
                </option>
              ))}
              <option value={NEW_ORDER}>{`New order for this patient: ${group.testName || 'the lab’s test'}`}</option>
            </select>
          )}
        </FormField>
      ))}
      <LoadMore list={orders} label="Show more of her orders" failedText="Could not load more of her orders." size="sm" variant="outline" />
    </fieldset>
  );
}
