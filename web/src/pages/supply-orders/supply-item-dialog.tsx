import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SUPPLY_LIMITS, type TSaveSupplyItem, type TSupplyItem } from '#domain/supplies';
import { useCreateSupplyItem } from '../../api/supplies/create-supply-item.ts';
import { useSuppliers } from '../../api/supplies/suppliers.ts';
import { reloadSupplyItem } from '../../api/supplies/supply-item.ts';
import { useUpdateSupplyItem } from '../../api/supplies/update-supply-item.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { ActiveCheckbox, FormDialog, FormDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { StaleBanner } from '../../components/ui/stale-banner.tsx';
import { apiErrorCode, describeApiError } from '../../lib/api-errors.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { SUPPLY_ITEM_FIELDS, supplyItemFormValues, ZSupplyItemForm, type TSupplyItemValues } from './supply-item-values.ts';

/**
 * 'New Item' and 'Edit' (supplies.manage): a catalogue item's name, unit, pack size, price (in
 * dollars, kept in cents), preferred supplier, reorder point and par level, lot and expiry, and
 * whether it is still stocked; a new item's opening stock. Stock itself never changes here:
 * it moves by uses, counts and pickups.
 */
export function SupplyItemDialog({ item, onClose }: { item: TSupplyItem | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const create = useCreateSupplyItem();
  const update = useUpdateSupplyItem();
  const suppliers = useSuppliers();
  const [current, setCurrent] = useState(item);
  const [stale, setStale] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  const form = useAppForm<TSupplyItemValues, TSaveSupplyItem>({
    schema: ZSupplyItemForm,
    defaultValues: supplyItemFormValues(item),
    fields: SUPPLY_ITEM_FIELDS,
  });
  const {
    register,
    formState: { errors },
  } = form;
  const saving = create.isPending || update.isPending;
  const num = { valueAsNumber: true } as const;

  const failed = (error: unknown) => {
    const described = form.failed(error, current ? 'Failed to save the item' : 'Failed to add the item', { withReason: true });
    if (!described) return;
    const code = apiErrorCode(error);
    if (code === 'record.stale') {
      setStale(describeApiError(error).message);
      form.setFormError(null);
    } else if (code === 'record.conflict') {
      // A name already in the catalogue is the name's problem: said under it.
      form.setError('name', { type: 'server', message: describeApiError(error).message }, { shouldFocus: true });
      form.setFormError(null);
    }
  };

  const onSubmit = form.onSubmit((body) => {
    const saved = (name: string) => {
      toast({ title: current ? 'Item saved' : 'Item added', description: name, variant: 'success' });
      onClose();
    };
    if (current) {
      const { openingQuantity: _opening, ...fields } = body;
      update.mutate({ id: current.id, body: { ...fields, updatedAt: current.updatedAt } }, { onSuccess: (i) => saved(i.name), onError: failed });
    } else create.mutate(body, { onSuccess: (i) => saved(i.name), onError: failed });
  });

  const reload = async () => {
    if (!current) return;
    setReloading(true);
    try {
      const fresh = await reloadSupplyItem(queryClient, current.id);
      setCurrent(fresh);
      form.reset(supplyItemFormValues(fresh));
      setStale(null);
    } catch (error) {
      reportMutationError(error, 'Failed to read the item again');
    } finally {
      setReloading(false);
    }
  };

  return (
    <FormDialog
      onClose={onClose}
      className="max-w-2xl"
      testId="supply-item-dialog"
      title={item ? 'Edit Item' : 'New Item'}
      description={item ? 'Stock is not changed here: record a count for that.' : 'Fields marked * are required. Prices are per unit, in dollars.'}
    >
      <form noValidate autoComplete="off" aria-label={item ? 'Edit supply item' : 'New supply item'} className="space-y-4" onSubmit={onSubmit}>
        {stale && <StaleBanner message={stale} reloadLabel="Reload the item" reloading={reloading} onReload={() => void reload()} testId="supply-item-stale" />}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="supply-item-name" label="Name" required error={errors.name?.message} testId="name" className="sm:col-span-2">
            {(control) => (
              <Input {...control} maxLength={SUPPLY_LIMITS.name} placeholder="e.g. Nitrile gloves, medium" {...register('name')} disabled={saving} />
            )}
          </FormField>
          <FormField id="supply-item-unit" label="Unit" required error={errors.unit?.message} testId="unit">
            {(control) => <Input {...control} maxLength={SUPPLY_LIMITS.unit} placeholder="box, each, bottle" {...register('unit')} disabled={saving} />}
          </FormField>
          <FormField id="supply-item-pack" label="Pack size (units per pack)" required error={errors.packSize?.message} testId="packSize">
            {(control) => (
              <Input {...control} type="number" inputMode="numeric" min={1} step={1} className="w-32" {...register('packSize', num)} disabled={saving} />
            )}
          </FormField>
          <FormField id="supply-item-price" label="Unit price ($)" required error={errors.unitPriceCents?.message} testId="unitPriceCents">
            {(control) => <Input {...control} inputMode="decimal" placeholder="12.50" className="w-36" {...register('unitPriceCents')} disabled={saving} />}
          </FormField>
          <FormField id="supply-item-supplier" label="Preferred supplier" error={errors.preferredSupplierId?.message} testId="preferredSupplierId">
            {(control) => (
              <select {...control} className={SELECT_CLASS} {...register('preferredSupplierId')} disabled={saving} aria-busy={suppliers.isPending || undefined}>
                <option value="">{suppliers.isPending ? 'Loading the suppliers…' : 'None'}</option>
                {/* The one on record, even if no longer an active supplier. */}
                {current?.preferredSupplierId && !suppliers.data?.some((s) => s.id === current.preferredSupplierId) && (
                  <option value={current.preferredSupplierId}>{current.preferredSupplierName ?? 'The supplier on record'}</option>
                )}
                {suppliers.data?.map((supplier) => (
                  <option key={supplier.id} value={supplier.id}>
                    {supplier.name}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField id="supply-item-reorder" label="Reorder point" required error={errors.reorderPoint?.message} testId="reorderPoint">
            {(control) => (
              <Input {...control} type="number" inputMode="numeric" min={0} step={1} className="w-32" {...register('reorderPoint', num)} disabled={saving} />
            )}
          </FormField>
          <FormField id="supply-item-par" label="Par level (order up to)" required error={errors.parLevel?.message} testId="parLevel">
            {(control) => (
              <Input {...control} type="number" inputMode="numeric" min={0} step={1} className="w-32" {...register('parLevel', num)} disabled={saving} />
            )}
          </FormField>
          <FormField id="supply-item-lot" label="Lot" error={errors.lot?.message} testId="lot">
            {(control) => <Input {...control} maxLength={SUPPLY_LIMITS.lot} {...register('lot')} disabled={saving} />}
          </FormField>
          <FormField id="supply-item-expires" label="Expires on" error={errors.expiresOn?.message} testId="expiresOn">
            {(control) => <Input {...control} type="date" className="max-w-48" {...register('expiresOn')} disabled={saving} />}
          </FormField>
          {!item && (
            <FormField id="supply-item-opening" label="Opening stock" error={errors.openingQuantity?.message} testId="openingQuantity">
              {(control) => (
                <Input
                  {...control}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  step={1}
                  className="w-32"
                  {...register('openingQuantity', num)}
                  disabled={saving}
                />
              )}
            </FormField>
          )}
        </div>
        {item && (
          <ActiveCheckbox
            id="supply-item-active"
            label="Still stocked"
            hint="Untick to retire the item: orders already placed keep it; it is no longer offered or suggested."
            {...register('isActive')}
            disabled={saving}
          />
        )}
        {form.formError && <FormErrorAlert error={form.formError} testId="supply-item-error" />}
        <FormDialogFooter saving={saving} blocked={Boolean(stale)} submitLabel={item ? 'Save Item' : 'Add Item'} onCancel={onClose} />
      </form>
    </FormDialog>
  );
}
