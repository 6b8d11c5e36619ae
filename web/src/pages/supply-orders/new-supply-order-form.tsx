import { formatCount } from '#domain/report-format';
import { Minus, Plus, Search, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useFieldArray, type FieldError } from 'react-hook-form';
import { formatCents, SUPPLY_LIMITS, type TCreateSupplyOrder, type TSupplyItem, type TSupplyOrder } from '#domain/supplies';
import { useCreateSupplyOrder } from '../../api/supplies/create-supply-order.ts';
import { useSuppliers } from '../../api/supplies/suppliers.ts';
import { useSupplyItems } from '../../api/supplies/supply-items.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { StickyDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm, type TAppForm } from '../../lib/use-app-form.ts';
import { cn } from '../../lib/utils.ts';
import { MAX_QUANTITY, packText, units } from './supply-format.ts';
import { lineFor, NEW_ORDER_FIELDS, packDown, packHint, packUp, previewTotalCents, ZNewOrderForm, type TNewOrderValues } from './new-supply-order-values.ts';

type TNewOrderForm = TAppForm<TNewOrderValues, TCreateSupplyOrder>;

/** How many of the catalogue's matches the search lists at once. */
const SEARCH_RESULTS = 8;

/**
 * The new supply order (supplies.order): a supplier (the first item's preferred one unless
 * chosen), items found in the catalogue with their stock in view as they are added, quantities
 * that step by whole packs, a total previewed as the server will compute it, and notes. The
 * server numbers and prices the order; its refusals show under the fields they name.
 */
export function NewSupplyOrderForm({
  presetItem,
  onCancel,
  onCreated,
}: {
  /** An item to start with (the Stock tab's 'Order'). */
  presetItem?: TSupplyItem | undefined;
  onCancel: () => void;
  onCreated: (order: TSupplyOrder) => void;
}) {
  const create = useCreateSupplyOrder();
  const suppliers = useSuppliers();
  const form = useAppForm<TNewOrderValues, TCreateSupplyOrder>({
    schema: ZNewOrderForm,
    defaultValues: { supplierId: presetItem?.preferredSupplierId ?? '', items: presetItem ? [lineFor(presetItem)] : [], notes: '' },
    fields: NEW_ORDER_FIELDS,
  });
  const lines = useFieldArray({ control: form.control, name: 'items', keyName: 'key' });
  const {
    register,
    watch,
    setValue,
    getValues,
    formState: { errors },
  } = form;
  const supplierId = watch('supplierId');
  const items = watch('items');
  const total = previewTotalCents(items);
  const itemsError = (errors.items as FieldError | undefined)?.message ?? errors.items?.root?.message;
  const saving = create.isPending;

  const add = (item: TSupplyItem) => {
    if (getValues('items').some((line) => line.itemId === item.id)) return;
    lines.append(lineFor(item), { shouldFocus: false });
    // The first item's usual supplier, unless one was chosen already.
    if (!getValues('supplierId') && item.preferredSupplierId) setValue('supplierId', item.preferredSupplierId, { shouldDirty: true });
    form.clearErrors('items');
  };

  const onSubmit = form.onSubmit((body) => {
    create.mutate(body, {
      onSuccess: (order) => {
        toast({
          title: `Order ${order.orderNumber} placed`,
          description: `${formatCents(order.totalAmount)}${order.supplierName ? ` with ${order.supplierName}` : ''}`,
          variant: 'success',
        });
        onCreated(order);
      },
      onError: (error) => void form.failed(error, 'Failed to place the supply order', { withReason: true }),
    });
  });

  return (
    <form noValidate autoComplete="off" aria-label="New supply order" className="space-y-5" onSubmit={onSubmit}>
      <FormField id="supply-supplier" label="Supplier" required error={errors.supplierId?.message} testId="supplierId">
        {(control) => (
          <>
            <select {...control} className={SELECT_CLASS} {...register('supplierId')} disabled={saving} aria-busy={suppliers.isPending || undefined}>
              <option value="">{suppliers.isPending ? 'Loading the suppliers…' : 'Select a supplier'}</option>
              {suppliers.data?.map((supplier) => (
                <option key={supplier.id} value={supplier.id}>
                  {supplier.name}
                </option>
              ))}
            </select>
            {suppliers.isError && (
              <p role="alert" className="flex flex-wrap items-center gap-2 text-sm text-red-700">
                Could not load the suppliers.
                <Button variant="link" size="sm" className="h-auto p-0" onClick={() => void suppliers.refetch()}>
                  Try again
                </Button>
              </p>
            )}
          </>
        )}
      </FormField>

      <CatalogueSearch added={new Set(items.map((line) => line.itemId))} full={items.length >= SUPPLY_LIMITS.lines} disabled={saving} onAdd={add} />

      <section aria-labelledby="order-lines-heading" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="order-lines-heading" className="text-sm font-semibold text-slate-900">
            Items in this order
          </h3>
          <span className="text-xs text-slate-600">{items.length === 0 ? 'None yet' : `${items.length} ${items.length === 1 ? 'item' : 'items'}`}</span>
        </div>
        {lines.fields.length === 0 ? (
          <p data-testid="order-lines-empty" className="rounded-md border border-dashed p-4 text-center text-sm text-slate-600">
            Search the catalogue above and add what you need.
          </p>
        ) : (
          <ul className="space-y-2" data-testid="order-lines">
            {lines.fields.map((field, i) => (
              <OrderLine key={field.key} form={form} index={i} supplierId={supplierId} saving={saving} onRemove={() => lines.remove(i)} />
            ))}
          </ul>
        )}
        {itemsError && (
          <p role="alert" data-testid="items-error" className="text-sm text-red-700">
            {itemsError}
          </p>
        )}
      </section>

      <FormField id="supply-notes" label="Notes" error={errors.notes?.message} testId="notes">
        {(control) => (
          <Textarea
            {...control}
            rows={2}
            maxLength={SUPPLY_LIMITS.notes}
            placeholder="For the supplier: substitutions allowed, when you will pick it up…"
            {...register('notes')}
            disabled={saving}
          />
        )}
      </FormField>

      {form.formError && <FormErrorAlert error={form.formError} testId="new-supply-order-error" />}

      <StickyDialogFooter className="flex-wrap items-center">
        <p className="mr-auto text-sm text-slate-700" data-testid="order-total-preview" aria-live="polite">
          Total <span className="text-base font-semibold text-slate-900 tabular-nums">{formatCents(total)}</span>
          <span className="block text-xs text-slate-600">At catalogue prices; the order keeps them.</span>
        </p>
        <Button variant="outline" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {saving && <Spinner className="size-4 text-white" />}
          {saving ? 'Ordering…' : 'Place Order'}
        </Button>
      </StickyDialogFooter>
    </form>
  );
}

/** The catalogue searched by name as one types, each match with its stock and an 'Add' button. */
function CatalogueSearch({ added, full, disabled, onAdd }: { added: Set<string>; full: boolean; disabled: boolean; onAdd: (item: TSupplyItem) => void }) {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), 250);
  const results = useSupplyItems({ view: 'all', q, limit: SEARCH_RESULTS });
  const matches = results.data?.pages[0]?.items ?? [];
  const more = Boolean(results.data?.pages[0]?.nextCursor);
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-2">
      <h3 id={`${id}-heading`} className="sr-only">
        The catalogue
      </h3>
      <div role="search" className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
        <Input
          type="search"
          aria-label="Search the catalogue"
          placeholder="Search the catalogue by name…"
          maxLength={100}
          value={text}
          onChange={(event) => setText(event.target.value)}
          className="pl-9"
          disabled={disabled}
        />
      </div>
      <div className="max-h-64 overflow-y-auto rounded-md border" data-testid="catalogue-results">
        {results.isPending ? (
          <p role="status" className="flex items-center gap-2 p-3 text-sm text-slate-600">
            <Spinner className="size-4" />
            Searching the catalogue…
          </p>
        ) : results.isError ? (
          <p role="alert" className="flex flex-wrap items-center gap-2 p-3 text-sm text-red-700">
            Could not search the catalogue.
            <Button variant="link" size="sm" className="h-auto p-0" onClick={() => void results.refetch()}>
              Try again
            </Button>
          </p>
        ) : matches.length === 0 ? (
          <p className="p-3 text-sm text-slate-600" data-testid="catalogue-empty">
            {q ? `Nothing in the catalogue matches “${q}”.` : 'The catalogue is empty: an administrator adds items on the Stock tab.'}
          </p>
        ) : (
          <ul className="divide-y">
            {matches.map((item) => {
              const isAdded = added.has(item.id);
              return (
                <li key={item.id} data-testid="catalogue-item" data-item-id={item.id} className="flex items-center gap-3 p-2.5 sm:px-3">
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-x-2 text-sm font-medium text-slate-900">
                      <span className="break-words">{item.name}</span>
                      {item.isLow && <Badge className="border-amber-400 bg-amber-100 text-amber-950">Low</Badge>}
                    </p>
                    <p className="text-xs text-slate-600">
                      {formatCents(item.unitPriceCents)} per {item.unit}, {packText(item)} · On hand {units(item.onHand, item.unit)} · On order {item.onOrder} ·
                      Reorder at {item.reorderPoint}
                    </p>
                  </div>
                  <Button size="sm" variant="outline" disabled={disabled || isAdded || full} onClick={() => onAdd(item)}>
                    {isAdded ? (
                      'Added'
                    ) : (
                      <>
                        <Plus aria-hidden="true" />
                        Add
                      </>
                    )}
                    <span className="sr-only"> {item.name}</span>
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <p className="text-xs text-slate-600" role="status">
        {results.data
          ? more
            ? `The first ${matches.length} matches; type more of a name to narrow them.`
            : q
              ? `${matches.length} ${matches.length === 1 ? 'match' : 'matches'}`
              : ''
          : ''}
      </p>
    </section>
  );
}

/** One line: the item with its stock, the quantity in whole packs (− / +), the line total; removable. */
function OrderLine({
  form,
  index,
  supplierId,
  saving,
  onRemove,
}: {
  form: TNewOrderForm;
  index: number;
  supplierId: string;
  saving: boolean;
  onRemove: () => void;
}) {
  const line = form.watch(`items.${index}`);
  const errors = form.formState.errors.items?.[index];
  const { item } = line;
  const id = `order-line-${index}`;
  const quantityError = errors?.quantity?.message;
  const itemError = errors?.itemId?.message;
  const hint = packHint(line.quantity, item.packSize);
  const lineTotal = Number.isInteger(line.quantity) && line.quantity > 0 ? line.quantity * item.unitPriceCents : null;
  const otherSupplier = item.preferredSupplierId && supplierId && item.preferredSupplierId !== supplierId ? item.preferredSupplierName : null;
  const step = (next: number) => form.setValue(`items.${index}.quantity`, next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  const hintId = `${id}-hint`;

  return (
    <li data-testid="order-line" data-item-id={item.id} className="rounded-md border p-3">
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 text-sm font-semibold text-slate-900">
            <span className="break-words">{item.name}</span>
            {item.isLow && <Badge className="border-amber-400 bg-amber-100 text-amber-950">Low</Badge>}
          </p>
          <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-600" data-testid="order-line-stock">
            <div className="flex gap-1">
              <dt>On hand</dt>
              <dd className="font-medium text-slate-900">{units(item.onHand, item.unit)}</dd>
            </div>
            <div className="flex gap-1">
              <dt>On order</dt>
              <dd className="font-medium text-slate-900">{formatCount(item.onOrder)}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Reorder at</dt>
              <dd className="font-medium text-slate-900">{formatCount(item.reorderPoint)}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Par</dt>
              <dd className="font-medium text-slate-900">{formatCount(item.parLevel)}</dd>
            </div>
          </dl>
          {otherSupplier && <p className="mt-1 text-xs text-amber-900">Usually ordered from {otherSupplier}</p>}
          {itemError && (
            <p className="mt-1 text-sm text-red-700" data-testid={`items.${index}.itemId-error`}>
              {itemError}
            </p>
          )}
        </div>
        <Button variant="ghost" size="icon" className="size-8 shrink-0 text-slate-700" aria-label={`Remove ${item.name}`} disabled={saving} onClick={onRemove}>
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
      <div className="mt-2 flex flex-wrap items-end justify-between gap-3">
        <div className="space-y-1">
          <label htmlFor={id} className="text-xs font-medium text-slate-700">
            Quantity<span className="sr-only"> of {item.name}</span> ({item.unit})
          </label>
          <div className="flex items-center gap-1">
            <Button
              variant="outline"
              size="icon"
              className="size-9"
              aria-label={`One pack fewer of ${item.name}`}
              disabled={saving || (Number.isInteger(line.quantity) && line.quantity <= Math.max(1, item.packSize))}
              onClick={() => step(packDown(line.quantity, item.packSize))}
            >
              <Minus aria-hidden="true" />
            </Button>
            <Input
              id={id}
              type="number"
              inputMode="numeric"
              // The arrows step from one pack by whole packs (a step counts from `min`); fewer may still be typed.
              min={Math.max(1, item.packSize)}
              max={MAX_QUANTITY}
              step={Math.max(1, item.packSize)}
              className="h-9 w-24 text-right tabular-nums"
              aria-invalid={quantityError ? true : undefined}
              aria-describedby={hintId}
              data-testid="order-line-quantity"
              {...form.register(`items.${index}.quantity`, { valueAsNumber: true })}
              disabled={saving}
            />
            <Button
              variant="outline"
              size="icon"
              className="size-9"
              aria-label={`One pack more of ${item.name}`}
              disabled={saving || line.quantity >= MAX_QUANTITY}
              onClick={() => step(packUp(line.quantity, item.packSize))}
            >
              <Plus aria-hidden="true" />
            </Button>
          </div>
          {quantityError ? (
            <p id={hintId} className="text-xs text-red-700" data-testid={`items.${index}.quantity-error`}>
              {quantityError}
            </p>
          ) : (
            <p id={hintId} className={cn('text-xs', hint && !hint.whole ? 'font-medium text-amber-900' : 'text-slate-600')} data-testid="pack-hint">
              {hint?.text ?? (item.packSize > 1 ? `Packs of ${item.packSize}` : `By the ${item.unit}`)}
            </p>
          )}
        </div>
        <p className="text-right text-sm">
          <span className="block text-xs text-slate-600">{formatCents(item.unitPriceCents)} each</span>
          <span className="font-semibold text-slate-900 tabular-nums" data-testid="order-line-total">
            {lineTotal === null ? '—' : formatCents(lineTotal)}
          </span>
        </p>
      </div>
    </li>
  );
}
