import { z, type ZodType } from 'zod';
import { LAB_LIMITS, LAB_PRIORITIES, LAB_PRIORITY_LABELS, ZCreateLabOrder, type TLabOrderDetail, type TLabPriority } from '#domain/labs';
import { ZDate } from '#domain/text';
import { useCreateLabOrder } from '../../api/labs/create-lab-order.ts';
import { useLabTests } from '../../api/labs/lab-tests.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { clinicToday, formatDay } from '#domain/clinic-time';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import type { TChosenPatient } from '../../components/patient-picker.tsx';
import { FormPatientField } from '../../components/preset-patient-field.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DialogFooter } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { cn } from '../../lib/utils.ts';

/** The test select's choice for a test the catalogue does not have: its name is typed. */
export const OTHER_TEST = 'other';

interface TNewLabOrderValues {
  patient: TChosenPatient | null;
  /** '' (none chosen yet), a catalogue test's id, or OTHER_TEST. */
  testId: string;
  orderName: string;
  priority: TLabPriority;
  expectedOn: string;
  description: string;
}

const FIELDS = ['patient', 'testId', 'orderName', 'priority', 'expectedOn', 'description'] as const;

/** The server's own rules for each field (domain/labs.ts ZCreateLabOrder); which of test or name is needed is the form's `check`. */
const ZNewLabOrder = z.object({
  patient: z
    .custom<TChosenPatient | null>()
    .transform((chosen) => chosen?.id ?? '')
    .pipe(ZCreateLabOrder.shape.patientId),
  testId: z.string(),
  orderName: ZCreateLabOrder.shape.orderName.unwrap(),
  priority: z.enum(LAB_PRIORITIES),
  expectedOn: z
    .string()
    .transform((v) => v || null)
    .pipe(ZDate.nullable()),
  description: ZCreateLabOrder.shape.description.unwrap(),
});
type TNewLabOrderOutput = z.output<typeof ZNewLabOrder>;

/**
 * The order form: the patient (the shared picker), a test of the catalogue or one named as free
 * text, the priority, the day results are expected and a description. The server's field errors
 * show under the fields.
 */
export function NewLabOrderForm({
  presetPatientId,
  onCancel,
  onCreated,
}: {
  presetPatientId: string | undefined;
  onCancel: () => void;
  onCreated: (order: TLabOrderDetail) => void;
}) {
  const tests = useLabTests();
  const clinic = useClinicTimeZone();
  const today = clinicToday(clinic.timeZone);
  const create = useCreateLabOrder();
  const form = useAppForm<TNewLabOrderValues, TNewLabOrderOutput>({
    schema: ZNewLabOrder as ZodType<TNewLabOrderOutput, TNewLabOrderValues>,
    check: (values) => ({
      testId: values.testId === '' ? 'Choose a test, or name one' : undefined,
      orderName: values.testId === OTHER_TEST && !values.orderName.trim() ? 'Name the test' : undefined,
      expectedOn: values.expectedOn && values.expectedOn < today ? 'Must not be before today' : undefined,
    }),
    defaultValues: { patient: null, testId: '', orderName: '', priority: 'routine', expectedOn: '', description: '' },
    fields: FIELDS,
    serverPaths: { patientId: 'patient' },
  });
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const other = watch('testId') === OTHER_TEST;
  const active = (tests.data ?? []).filter((test) => test.isActive);

  const onSubmit = form.onSubmit((values) => {
    const catalogued = values.testId !== OTHER_TEST;
    create.mutate(
      {
        patientId: values.patient,
        ...(catalogued ? { testId: values.testId } : { orderName: values.orderName }),
        priority: values.priority,
        expectedOn: values.expectedOn,
        description: values.description,
      },
      {
        onSuccess: (order) => {
          toast({ title: 'Lab order created', description: `${order.orderName} for ${order.patientName}`, variant: 'success' });
          onCreated(order);
        },
        onError: (error) => void form.failed(error, 'Failed to create the lab order'),
      },
    );
  });

  return (
    <form noValidate autoComplete="off" aria-label="New lab order" className="space-y-5" onSubmit={onSubmit}>
      <FormPatientField form={form} id="lab-patient" presetPatientId={presetPatientId} disabled={create.isPending} />

      <FormField id="lab-test" label="Test" required error={errors.testId?.message} testId="testId">
        {(control) => (
          <>
            <select {...control} className={SELECT_CLASS} {...register('testId')} disabled={create.isPending} aria-busy={tests.isPending || undefined}>
              <option value="">{tests.isPending ? 'Loading the catalogue…' : 'Select a test'}</option>
              {active.map((test) => (
                <option key={test.id} value={test.id}>
                  {test.name}
                  {test.loinc ? ` (LOINC ${test.loinc})` : ''}
                </option>
              ))}
              <option value={OTHER_TEST}>Another test (name it)</option>
            </select>
            {tests.isError && (
              <p className="text-sm text-slate-700" role="status">
                The catalogue could not be loaded: name the test instead, or close and try again.
              </p>
            )}
          </>
        )}
      </FormField>

      {other && (
        <FormField id="lab-order-name" label="Test name" required error={errors.orderName?.message} testId="orderName">
          {(control) => (
            <Input
              {...control}
              maxLength={LAB_LIMITS.testName}
              placeholder="e.g. Vitamin D, 25-hydroxy"
              {...register('orderName')}
              disabled={create.isPending}
            />
          )}
        </FormField>
      )}

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Priority</legend>
        <div className="grid grid-cols-3 gap-2">
          {LAB_PRIORITIES.map((priority) => (
            <label
              key={priority}
              className={cn(
                'flex cursor-pointer items-center justify-center gap-2 rounded-md border px-3 py-2 text-sm font-medium has-[:checked]:border-blue-700 has-[:checked]:bg-blue-50 has-[:checked]:text-blue-900 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                priority === 'stat' && 'has-[:checked]:border-red-700 has-[:checked]:bg-red-50 has-[:checked]:text-red-900',
              )}
            >
              <input type="radio" value={priority} className="size-4 accent-blue-700" {...register('priority')} disabled={create.isPending} />
              {LAB_PRIORITY_LABELS[priority]}
            </label>
          ))}
        </div>
      </fieldset>

      <FormField id="lab-expected" label="Results expected on" error={errors.expectedOn?.message} testId="expectedOn">
        {(control) => (
          <>
            <Input
              {...control}
              aria-describedby={[control['aria-describedby'], 'lab-expected-hint'].filter(Boolean).join(' ')}
              type="date"
              min={today}
              className="max-w-48"
              {...register('expectedOn')}
              disabled={create.isPending}
            />
            <p id="lab-expected-hint" className="text-xs text-slate-600">
              Optional. Past this day with no results, the order shows as overdue. Today is {formatDay(today)}.
            </p>
          </>
        )}
      </FormField>

      <FormField id="lab-description" label="Description" error={errors.description?.message} testId="description">
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            maxLength={LAB_LIMITS.description}
            placeholder="Clinical question, fasting, special handling…"
            {...register('description')}
            disabled={create.isPending}
          />
        )}
      </FormField>

      {form.formError && <FormErrorAlert error={form.formError} testId="new-lab-order-error" />}

      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <Spinner className="size-4 text-white" />}
          {create.isPending ? 'Ordering…' : 'Place Order'}
        </Button>
      </DialogFooter>
    </form>
  );
}
