import { Plus, Trash2 } from 'lucide-react';
import { useFieldArray, type FieldError } from 'react-hook-form';
import { LAB_LIMITS, LAB_MAX_ANALYTES, type TLabTest, type TSaveLabTestInput } from '#domain/labs';
import { useCreateLabTest } from '../../api/labs/create-lab-test.ts';
import { useUpdateLabTest } from '../../api/labs/update-lab-test.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { StickyDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { apiErrorCode, describeApiError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm, type TAppForm } from '../../lib/use-app-form.ts';
import { cn } from '../../lib/utils.ts';
import { blankAnalyte, blankRange, LAB_TEST_FIELDS, labTestFormValues, MAX_RANGES, ZLabTestForm, type TLabTestValues } from './lab-test-form-values.ts';

type TLabTestForm = TAppForm<TLabTestValues, TSaveLabTestInput>;

const SMALL_INPUT = 'h-9';
const RANGE_INPUTS = [
  // Whole years: from this age, and under that one ([ageFrom, ageTo)).
  { field: 'ageFrom', label: 'From age' },
  { field: 'ageTo', label: 'Under age' },
  { field: 'low', label: 'Low' },
  { field: 'high', label: 'High' },
  { field: 'criticalLow', label: 'Critical low' },
  { field: 'criticalHigh', label: 'Critical high' },
] as const;

/**
 * A catalogue test (labs.catalogue): its name and LOINC code, whether it is offered for new
 * orders, and its analytes in order, each with its unit, kind and reference ranges by sex and
 * age band with normal and critical limits. The server's schema checks it before it is sent;
 * what the server still refuses shows under the input it names.
 */
export function LabTestForm({ test, onDone }: { test: TLabTest | null; onDone: () => void }) {
  const create = useCreateLabTest();
  const update = useUpdateLabTest();
  const saving = create.isPending || update.isPending;
  const form = useAppForm<TLabTestValues, TSaveLabTestInput>({ schema: ZLabTestForm, defaultValues: labTestFormValues(test), fields: LAB_TEST_FIELDS });
  const analytes = useFieldArray({ control: form.control, name: 'analytes' });
  const {
    register,
    formState: { errors },
  } = form;
  const analytesError = (errors.analytes as FieldError | undefined)?.message ?? errors.analytes?.root?.message;

  const failed = (error: unknown) => {
    const described = form.failed(error, test ? 'Failed to save the test' : 'Failed to add the test', { withReason: true });
    // A name already in the catalogue is the name's problem: said under it.
    if (described && apiErrorCode(error) === 'record.conflict') {
      form.setError('name', { type: 'server', message: describeApiError(error).message }, { shouldFocus: true });
      form.setFormError(null);
    }
  };
  const onSubmit = form.onSubmit((body) => {
    const saved = (name: string) => {
      toast({ title: test ? 'Test saved' : 'Test added', description: name, variant: 'success' });
      onDone();
    };
    if (test) update.mutate({ id: test.id, body: { ...body, updatedAt: test.updatedAt } }, { onSuccess: (t) => saved(t.name), onError: failed });
    else create.mutate(body, { onSuccess: (t) => saved(t.name), onError: failed });
  });

  return (
    <form noValidate autoComplete="off" aria-label={test ? 'Edit lab test' : 'New lab test'} className="space-y-5" onSubmit={onSubmit}>
      <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <FormField id="lab-test-name" label="Test name" required error={errors.name?.message} testId="name">
          {(control) => <Input {...control} maxLength={LAB_LIMITS.testName} placeholder="e.g. Basic metabolic panel" {...register('name')} disabled={saving} />}
        </FormField>
        <FormField id="lab-test-loinc" label="LOINC" error={errors.loinc?.message} testId="loinc">
          {(control) => <Input {...control} maxLength={LAB_LIMITS.loinc} placeholder="51990-0" spellCheck={false} {...register('loinc')} disabled={saving} />}
        </FormField>
      </div>
      <label className="flex items-start gap-2 text-sm" htmlFor="lab-test-active">
        <input id="lab-test-active" type="checkbox" className="mt-0.5 size-4 shrink-0 accent-blue-700" {...register('isActive')} disabled={saving} />
        <span>
          <span className="font-medium">Offered for new orders</span>
          <span className="block text-xs text-slate-600">Untick to retire the test: orders already placed keep it, and their results stay as they are.</span>
        </span>
      </label>

      <section aria-labelledby="lab-test-analytes-heading" className="space-y-3">
        <h3 id="lab-test-analytes-heading" className="text-sm font-semibold text-slate-900">
          Analytes
        </h3>
        {analytes.fields.map((analyte, i) => (
          <AnalyteFields key={analyte.id} form={form} index={i} saving={saving} removable={analytes.fields.length > 1} onRemove={() => analytes.remove(i)} />
        ))}
        {analytesError && (
          <p role="alert" data-testid="analytes-error" className="text-sm text-red-700">
            {analytesError}
          </p>
        )}
        <Button variant="outline" size="sm" disabled={saving || analytes.fields.length >= LAB_MAX_ANALYTES} onClick={() => analytes.append(blankAnalyte())}>
          <Plus aria-hidden="true" />
          Add analyte
        </Button>
      </section>

      {form.formError && <FormErrorAlert error={form.formError} testId="lab-test-form-error" />}

      <StickyDialogFooter>
        <Button variant="outline" onClick={onDone} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {saving && <Spinner className="size-4 text-white" />}
          {saving ? 'Saving…' : test ? 'Save Test' : 'Add Test'}
        </Button>
      </StickyDialogFooter>
    </form>
  );
}

/** One analyte: name, LOINC, unit, kind, and for a numeric one its ranges. */
function AnalyteFields({
  form,
  index,
  saving,
  removable,
  onRemove,
}: {
  form: TLabTestForm;
  index: number;
  saving: boolean;
  removable: boolean;
  onRemove: () => void;
}) {
  const ranges = useFieldArray({ control: form.control, name: `analytes.${index}.ranges` });
  const errors = form.formState.errors.analytes?.[index];
  const kind = form.watch(`analytes.${index}.kind`);
  const name = form.watch(`analytes.${index}.name`);
  const rangesError = (errors?.ranges as FieldError | undefined)?.message ?? errors?.ranges?.root?.message;
  const id = `lab-analyte-${index}`;
  const title = name.trim() || `Analyte ${index + 1}`;
  return (
    <fieldset className="space-y-3 rounded-md border p-3 sm:p-4" data-testid="analyte-fields">
      <legend className="px-1 text-sm font-medium text-slate-900">{title}</legend>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-start">
        <FormField id={`${id}-name`} label="Name" required error={errors?.name?.message} testId={`analytes.${index}.name`} className="col-span-2 sm:col-span-1">
          {(control) => (
            <Input {...control} className={SMALL_INPUT} maxLength={LAB_LIMITS.analyteName} {...form.register(`analytes.${index}.name`)} disabled={saving} />
          )}
        </FormField>
        <FormField id={`${id}-loinc`} label="LOINC" error={errors?.loinc?.message} testId={`analytes.${index}.loinc`}>
          {(control) => (
            <Input
              {...control}
              className={SMALL_INPUT}
              maxLength={LAB_LIMITS.loinc}
              spellCheck={false}
              {...form.register(`analytes.${index}.loinc`)}
              disabled={saving}
            />
          )}
        </FormField>
        <FormField id={`${id}-unit`} label="Unit (UCUM)" error={errors?.unit?.message} testId={`analytes.${index}.unit`}>
          {(control) => (
            <Input
              {...control}
              className={SMALL_INPUT}
              maxLength={LAB_LIMITS.unit}
              placeholder="mmol/L"
              spellCheck={false}
              {...form.register(`analytes.${index}.unit`)}
              disabled={saving}
            />
          )}
        </FormField>
        <FormField id={`${id}-kind`} label="Kind" error={errors?.kind?.message} testId={`analytes.${index}.kind`}>
          {(control) => (
            <select {...control} className={cn(SELECT_CLASS, SMALL_INPUT)} {...form.register(`analytes.${index}.kind`)} disabled={saving}>
              <option value="numeric">Number</option>
              <option value="text">Text</option>
            </select>
          )}
        </FormField>
        <div className="flex items-end sm:pt-6">
          <Button
            variant="ghost"
            size="sm"
            className="text-red-700 hover:bg-red-50"
            disabled={saving || !removable}
            aria-label={`Remove ${title}`}
            onClick={onRemove}
          >
            <Trash2 aria-hidden="true" />
            <span className="sm:sr-only">Remove</span>
          </Button>
        </div>
      </div>

      {kind === 'numeric' ? (
        <div className="space-y-2">
          <p className="text-xs font-medium text-slate-700">
            Reference ranges: the patient's sex and age pick the most specific one; a value at or beyond a critical limit alerts.
          </p>
          {ranges.fields.length === 0 && <p className="text-xs text-slate-600">No ranges: values of {title} are shown without a flag.</p>}
          <ul className="space-y-2">
            {ranges.fields.map((range, j) => (
              <li
                key={range.id}
                data-testid="range-fields"
                className="grid grid-cols-2 gap-2 rounded-md bg-slate-50 p-2 sm:grid-cols-4 lg:grid-cols-[7rem_repeat(6,minmax(0,1fr))_auto] lg:items-start"
              >
                <FormField
                  id={`${id}-range-${j}-sex`}
                  label={<span className="text-xs">Sex</span>}
                  error={errors?.ranges?.[j]?.sex?.message}
                  testId={`analytes.${index}.ranges.${j}.sex`}
                  className="col-span-2 space-y-1 sm:col-span-1"
                >
                  {(control) => (
                    <select
                      {...control}
                      className={cn(SELECT_CLASS, SMALL_INPUT, 'px-2')}
                      {...form.register(`analytes.${index}.ranges.${j}.sex`)}
                      disabled={saving}
                    >
                      <option value="">Any</option>
                      <option value="female">Female</option>
                      <option value="male">Male</option>
                    </select>
                  )}
                </FormField>
                {RANGE_INPUTS.map((input) => (
                  <FormField
                    key={input.field}
                    id={`${id}-range-${j}-${input.field}`}
                    label={<span className="text-xs">{input.label}</span>}
                    error={errors?.ranges?.[j]?.[input.field]?.message}
                    testId={`analytes.${index}.ranges.${j}.${input.field}`}
                    className="space-y-1"
                  >
                    {(control) => (
                      <Input
                        {...control}
                        type="number"
                        step={input.field === 'ageFrom' || input.field === 'ageTo' ? 1 : 'any'}
                        inputMode="decimal"
                        className={cn(SMALL_INPUT, 'px-2')}
                        {...form.register(`analytes.${index}.ranges.${j}.${input.field}`)}
                        disabled={saving}
                      />
                    )}
                  </FormField>
                ))}
                <div className="col-span-2 flex items-end sm:col-span-4 lg:col-span-1 lg:pt-5">
                  <Button variant="ghost" size="sm" disabled={saving} aria-label={`Remove range ${j + 1} of ${title}`} onClick={() => ranges.remove(j)}>
                    <Trash2 aria-hidden="true" />
                    <span className="lg:sr-only">Remove range</span>
                  </Button>
                </div>
              </li>
            ))}
          </ul>
          {rangesError && (
            <p role="alert" className="text-sm text-red-700">
              {rangesError}
            </p>
          )}
          <Button variant="outline" size="sm" disabled={saving || ranges.fields.length >= MAX_RANGES} onClick={() => ranges.append(blankRange())}>
            <Plus aria-hidden="true" />
            Add range
          </Button>
        </div>
      ) : (
        <p className="text-xs text-slate-600">A text result (a colour, 'negative') has no ranges: it is flagged only by hand, or by the lab.</p>
      )}
    </fieldset>
  );
}
