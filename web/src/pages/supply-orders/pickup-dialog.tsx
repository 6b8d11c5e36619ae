import { formatCount } from '#domain/report-format';
import { useId, useState } from 'react';
import type { Path } from 'react-hook-form';
import { z } from 'zod';
import { SUPPLY_LIMITS, ZPickUpSupplyOrder, type TSupplyOrder } from '#domain/supplies';
import { isOutdatedSupplyOrder } from '../../api/supplies/move-supply-order.ts';
import { usePickUpSupplyOrder } from '../../api/supplies/pick-up-supply-order.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DialogFooter } from '../../components/ui/dialog.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { cn } from '../../lib/utils.ts';

export interface TPickupValues {
  /** What came of each line of the order, in the order's order; NaN while blank. */
  lines: { received: number }[];
}

/** A line's count by the server's own rule for `receivedQuantity` (a whole number, not negative). */
const ZReceived = ZPickUpSupplyOrder.shape.lines.unwrap().element.shape.receivedQuantity;

/** The form's rules for this order: each line's count, and no more than that line ordered. */
function pickupSchema(order: TSupplyOrder): z.ZodType<TPickupValues, TPickupValues> {
  const lines = order.items.map((line) =>
    z.object({ received: ZReceived.refine((n) => n <= line.quantity, `At most the ${formatCount(line.quantity)} ordered`) }),
  );
  return z.object({ lines: z.tuple(lines as unknown as [z.ZodType<{ received: number }>]) }) as unknown as z.ZodType<TPickupValues, TPickupValues>;
}

const FIELDS: readonly Path<TPickupValues>[] = Array.from({ length: SUPPLY_LIMITS.lines }, (_, i) => `lines.${i}.received` as const);
/** The server names the body's lines, which are the form's, one for one. */
const SERVER_PATHS = Object.fromEntries(Array.from({ length: SUPPLY_LIMITS.lines }, (_, i) => [`lines.${i}.receivedQuantity`, `lines.${i}.received` as const]));

/** How many units short a line came (0 when in full, or while its count is not a number). */
const shortBy = (ordered: number, received: number) => (Number.isInteger(received) && received < ordered ? ordered - received : 0);

/**
 * 'Confirm Pickup': each line with the quantity received, which starts at the quantity ordered;
 * a line that came short is recorded as such. What came is added to the stock by the server,
 * in the same step that completes the order.
 */
export function PickupDialog({ order, onClose }: { order: TSupplyOrder; onClose: () => void }) {
  const pickup = usePickUpSupplyOrder();
  const [schema] = useState(() => pickupSchema(order));
  const form = useAppForm<TPickupValues>({
    schema,
    defaultValues: { lines: order.items.map((line) => ({ received: line.quantity })) },
    fields: FIELDS,
    serverPaths: SERVER_PATHS,
  });
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const lines = watch('lines');
  const shortLines = order.items.filter((line, i) => shortBy(line.quantity, lines[i]?.received ?? line.quantity) > 0).length;
  const headingId = useId();

  const onSubmit = form.onSubmit((values) => {
    pickup.mutate(
      {
        id: order.id,
        body: { lines: order.items.map((line, i) => ({ itemId: line.itemId, receivedQuantity: values.lines[i]!.received })), updatedAt: order.updatedAt },
      },
      {
        onSuccess: (done) => {
          const short = done.items.filter((line) => line.receivedQuantity !== null && line.receivedQuantity < line.quantity).length;
          toast({
            title: 'Pickup confirmed',
            description: `Order ${done.orderNumber}: ${short === 0 ? 'everything came' : `${short} ${short === 1 ? 'line' : 'lines'} short`}; the stock is updated.`,
            variant: 'success',
          });
          onClose();
        },
        onError: (error) => {
          const described = form.failed(error, 'Failed to confirm the pickup', { withReason: true });
          if (described && isOutdatedSupplyOrder(error)) onClose();
        },
      },
    );
  });

  return (
    <FormDialog
      onClose={onClose}
      className="max-w-2xl"
      testId="pickup-dialog"
      title="Confirm Pickup"
      description={`Order ${order.orderNumber}${order.supplierName ? ` from ${order.supplierName}` : ''}. Enter what came of each line; what came is added to the stock.`}
    >
      <form noValidate autoComplete="off" className="space-y-4" onSubmit={onSubmit} aria-labelledby={headingId}>
        <h3 id={headingId} className="sr-only">
          Quantities received
        </h3>
        <table className="w-full border-collapse text-sm" data-testid="pickup-lines">
          <thead>
            <tr className="border-b text-left text-xs text-slate-600">
              <th scope="col" className="py-2 pr-2 font-medium">
                Item
              </th>
              <th scope="col" className="py-2 pr-2 text-right font-medium">
                Ordered
              </th>
              <th scope="col" className="py-2 font-medium">
                Received
              </th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((line, i) => {
              const id = `pickup-received-${i}`;
              const error = errors.lines?.[i]?.received?.message;
              const short = shortBy(line.quantity, lines[i]?.received ?? line.quantity);
              const noteId = `${id}-note`;
              return (
                <tr
                  key={line.itemId}
                  data-testid="pickup-line"
                  data-item-id={line.itemId}
                  data-short={short > 0}
                  className={cn('border-b align-top', short > 0 && 'bg-amber-50')}
                >
                  <th scope="row" className="py-2 pr-2 text-left font-medium text-slate-900">
                    <label htmlFor={id} className="break-words">
                      {line.name}
                    </label>
                    <span className="block text-xs font-normal text-slate-600">per {line.unit}</span>
                  </th>
                  <td className="py-2 pr-2 text-right tabular-nums">{formatCount(line.quantity)}</td>
                  <td className="w-32 py-2 sm:w-40">
                    <Input
                      id={id}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={line.quantity}
                      step={1}
                      className="h-9 w-24 tabular-nums"
                      aria-invalid={error ? true : undefined}
                      aria-describedby={noteId}
                      {...register(`lines.${i}.received`, { valueAsNumber: true })}
                      disabled={pickup.isPending}
                    />
                    {error ? (
                      <p id={noteId} className="mt-1 text-xs text-red-700" data-testid={`lines.${i}.received-error`}>
                        {error}
                      </p>
                    ) : (
                      <p
                        id={noteId}
                        className={cn('mt-1 text-xs', short > 0 ? 'font-semibold text-amber-900' : 'text-slate-600')}
                        data-testid="pickup-line-note"
                      >
                        {short > 0 ? `${formatCount(short)} short` : 'In full'}
                      </p>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <p className="text-sm text-slate-700" role="status" data-testid="pickup-summary">
          {shortLines === 0
            ? 'Every line came in full.'
            : `${shortLines} ${shortLines === 1 ? 'line' : 'lines'} short: recorded as received, the rest is not added to stock.`}
        </p>
        {form.formError && <FormErrorAlert error={form.formError} testId="pickup-error" />}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={pickup.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pickup.isPending}>
            {pickup.isPending && <Spinner className="size-4 text-white" />}
            Confirm Pickup
          </Button>
        </DialogFooter>
      </form>
    </FormDialog>
  );
}
