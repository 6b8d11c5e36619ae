import { useState } from 'react';
import { DEA_SCHEDULES, FORMULARY_LIMITS, type TFormularyItem, type TSaveFormularyItem } from '#domain/formulary';
import { MEDICATION_ROUTES } from '#domain/chart';
import { useSaveFormularyItem } from '../../api/formulary/save-catalogue-entries.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { ActiveCheckbox, FormDialog, FormDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { StaleBanner } from '../../components/ui/stale-banner.tsx';
import { apiErrorCode, describeApiError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { ROUTE_LABELS } from '../../components/chart/route-labels.ts';
import {
  FORMULARY_ITEM_FIELDS,
  FORMULARY_ITEM_SERVER_PATHS,
  formularyItemValues,
  previewName,
  ZFormularyItemForm,
  type TFormularyItemValues,
} from './formulary-item-values.ts';

/** The forms a prescriber meets most, offered as one types (any other may be written). */
const DOSE_FORMS = ['tablet', 'capsule', 'oral solution', 'oral suspension', 'inhaler', 'nasal spray', 'cream', 'ointment', 'eye drops', 'injection', 'patch'];

/**
 * 'Add Medication' and 'Edit' (formulary.manage): a product's ingredients, strength, form, route,
 * RxNorm and ATC codes and DEA schedule. Its name is made from the first three, as the server
 * will make it; an item rewritten here becomes the clinic's. Unticking 'Offered' retires it.
 */
export function FormularyItemDialog({ item, onClose }: { item: TFormularyItem | null; onClose: () => void }) {
  const save = useSaveFormularyItem();
  const [stale, setStale] = useState<string | null>(null);
  const form = useAppForm<TFormularyItemValues, TSaveFormularyItem>({
    schema: ZFormularyItemForm,
    defaultValues: formularyItemValues(item),
    fields: FORMULARY_ITEM_FIELDS,
    serverPaths: FORMULARY_ITEM_SERVER_PATHS,
  });
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const name = previewName(watch());

  const failed = (error: unknown) => {
    const described = form.failed(error, item ? 'Failed to save the medication' : 'Failed to add the medication', { withReason: true });
    if (!described) return;
    const code = apiErrorCode(error);
    if (code === 'record.stale') {
      setStale(describeApiError(error).message);
      form.setFormError(null);
    } else if (code === 'record.conflict') {
      // A name or RxNorm code another item holds: said under the ingredients, which make the name.
      form.setError(/RxNorm/.test(described.message) ? 'rxcui' : 'ingredients', { type: 'server', message: described.message }, { shouldFocus: true });
      form.setFormError(null);
    }
  };

  const onSubmit = form.onSubmit((body) =>
    save.mutate(
      { id: item?.id ?? null, body: item ? { ...body, updatedAt: item.updatedAt } : body },
      {
        onSuccess: (saved) => {
          toast({ title: item ? 'Medication saved' : 'Medication added', description: saved.name, variant: 'success' });
          onClose();
        },
        onError: failed,
      },
    ),
  );
  const saving = save.isPending;

  return (
    <FormDialog
      onClose={onClose}
      className="max-w-2xl"
      testId="formulary-item-dialog"
      title={item ? 'Edit Medication' : 'New Medication'}
      description={
        item
          ? 'Entries that already name it keep it. A shipped or imported item you change becomes the clinic’s own.'
          : 'Fields marked * are required. The name is made from the ingredients, strength and form.'
      }
    >
      <form
        noValidate
        autoComplete="off"
        aria-label={item ? 'Edit formulary medication' : 'New formulary medication'}
        className="space-y-4"
        onSubmit={onSubmit}
      >
        {stale && <StaleBanner message={stale} reloadLabel="Close and reopen" reloading={false} onReload={onClose} testId="formulary-item-stale" />}
        <p className="rounded-md bg-slate-50 p-3 text-sm" aria-live="polite" data-testid="formulary-item-name">
          <span className="text-slate-600">Listed as </span>
          <span className="font-semibold text-slate-900">{name || '—'}</span>
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="formulary-ingredients" label="Ingredients" required error={errors.ingredients?.message} testId="ingredients" className="sm:col-span-2">
            {(control) => (
              <>
                <Input
                  {...control}
                  aria-describedby="formulary-ingredients-hint"
                  placeholder="e.g. amoxicillin, clavulanate"
                  {...register('ingredients')}
                  disabled={saving}
                />
                <p id="formulary-ingredients-hint" className="text-xs text-slate-600">
                  Separated by commas, up to {FORMULARY_LIMITS.ingredients}. Allergies are checked against these.
                </p>
              </>
            )}
          </FormField>
          <FormField id="formulary-strength" label="Strength" error={errors.strength?.message} testId="strength">
            {(control) => <Input {...control} maxLength={FORMULARY_LIMITS.strength} placeholder="500 mg" {...register('strength')} disabled={saving} />}
          </FormField>
          <FormField id="formulary-dose-form" label="Dose form" error={errors.doseForm?.message} testId="doseForm">
            {(control) => (
              <>
                <Input
                  {...control}
                  list="formulary-dose-forms"
                  maxLength={FORMULARY_LIMITS.doseForm}
                  placeholder="tablet"
                  {...register('doseForm')}
                  disabled={saving}
                />
                <datalist id="formulary-dose-forms">
                  {DOSE_FORMS.map((f) => (
                    <option key={f} value={f} />
                  ))}
                </datalist>
              </>
            )}
          </FormField>
          <FormField id="formulary-route" label="Route" error={errors.route?.message} testId="route">
            {(control) => (
              <select {...control} className={SELECT_CLASS} {...register('route')} disabled={saving}>
                <option value="">Not given</option>
                {MEDICATION_ROUTES.map((route) => (
                  <option key={route} value={route}>
                    {ROUTE_LABELS[route]}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField id="formulary-schedule" label="DEA schedule" error={errors.schedule?.message} testId="schedule">
            {(control) => (
              <select {...control} className={SELECT_CLASS} {...register('schedule')} disabled={saving}>
                <option value="">Not controlled</option>
                {DEA_SCHEDULES.map((s) => (
                  <option key={s} value={s}>
                    Schedule {s}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField id="formulary-rxcui" label="RxNorm code" error={errors.rxcui?.message} testId="rxcui">
            {(control) => <Input {...control} inputMode="numeric" placeholder="308182" className="max-w-48" {...register('rxcui')} disabled={saving} />}
          </FormField>
          <FormField id="formulary-atc" label="ATC code" error={errors.atc?.message} testId="atc">
            {(control) => <Input {...control} placeholder="J01CA04" className="max-w-48" {...register('atc')} disabled={saving} />}
          </FormField>
        </div>
        <ActiveCheckbox
          id="formulary-active"
          label="Offered"
          hint="Untick to retire it: it leaves the pickers; entries that name it keep it."
          {...register('isActive')}
          disabled={saving}
        />
        {form.formError && <FormErrorAlert error={form.formError} testId="formulary-item-error" />}
        <FormDialogFooter saving={saving} blocked={Boolean(stale)} submitLabel={item ? 'Save Medication' : 'Add Medication'} onCancel={onClose} />
      </form>
    </FormDialog>
  );
}
