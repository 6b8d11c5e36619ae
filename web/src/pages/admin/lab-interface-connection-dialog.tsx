import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useFieldArray, type FieldError, type Path } from 'react-hook-form';
import { z, type ZodType } from 'zod';
import { LAB_ORDER_MESSAGE_TYPES, ZSaveLabConnection, type TLabConnection, type TSaveLabConnectionInput } from '#domain/lab-interfaces';
import { useCreateLabConnection } from '../../api/labs/lab-connection-create.ts';
import { useUpdateLabConnection } from '../../api/labs/lab-connection-update.ts';
import { useLabTests } from '../../api/labs/lab-tests.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ActiveCheckbox, FormDialog, FormDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { StaleBanner } from '../../components/ui/stale-banner.tsx';
import { apiErrorCode, describeApiError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

type TMessageType = (typeof LAB_ORDER_MESSAGE_TYPES)[number];
const MESSAGE_TYPE_LABELS: Record<TMessageType, string> = { 'ORM^O01': 'ORM^O01 (general order)', 'OML^O21': 'OML^O21 (laboratory order)' };

/** One row of codes: a test of the catalogue and the lab's code for it. */
interface TCodeValues {
  testId: string;
  code: string;
}

/** The lab as the form holds it: the port as typed. */
interface TValues {
  name: string;
  host: string;
  port: string;
  messageType: TMessageType;
  receivingApplication: string;
  receivingFacility: string;
  isActive: boolean;
  codes: TCodeValues[];
}

/** As many rows as the server takes (domain/lab-interfaces.ts: codes at most 500). */
const MAX_CODES = 500;
const FIELDS: readonly Path<TValues>[] = [
  'name',
  'host',
  'port',
  'messageType',
  'receivingApplication',
  'receivingFacility',
  'isActive',
  'codes',
  ...Array.from({ length: MAX_CODES }, (_, i) => [`codes.${i}.testId`, `codes.${i}.code`] as const).flat(),
];

/**
 * The form checked by the server's own schema (ZSaveLabConnection), each refusal at the path the
 * server would name (`codes.1.code`). Two rules only a form needs: a row without a test says so
 * (rather than 'Invalid UUID'), and a test coded twice is refused, since the server would keep
 * only the last code without a word.
 */
const ZForm = z
  .object({
    name: z.string(),
    host: z.string(),
    port: z.string(),
    messageType: z.enum(LAB_ORDER_MESSAGE_TYPES),
    receivingApplication: z.string(),
    receivingFacility: z.string(),
    isActive: z.boolean(),
    codes: z.array(z.object({ testId: z.string(), code: z.string() })),
  })
  .transform((values, ctx) => {
    const own = new Map<string, string>();
    const portText = values.port.trim();
    const port = portText === '' ? undefined : Number(portText);
    if (port !== undefined && !Number.isFinite(port)) own.set('port', 'A whole number');
    const seen = new Set<string>();
    values.codes.forEach((row, i) => {
      if (!row.testId) own.set(`codes.${i}.testId`, 'Choose a test');
      else if (seen.has(row.testId)) own.set(`codes.${i}.testId`, 'This test has a code above');
      seen.add(row.testId);
    });
    const parsed = ZSaveLabConnection.safeParse({ ...values, port: own.has('port') ? undefined : port });
    for (const [path, message] of own)
      ctx.addIssue({ code: 'custom', path: path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), message });
    if (parsed.success && own.size === 0) return parsed.data;
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      if (!own.has(issue.path.join('.'))) ctx.addIssue({ code: 'custom', path: issue.path as (string | number)[], message: issue.message });
    }
    return z.NEVER;
  }) as unknown as ZodType<TSaveLabConnectionInput, TValues>;

const valuesOf = (connection: TLabConnection | null): TValues => ({
  name: connection?.name ?? '',
  host: connection?.host ?? '',
  port: connection ? String(connection.port) : '',
  messageType: connection?.messageType ?? 'ORM^O01',
  receivingApplication: connection?.receivingApplication ?? '',
  receivingFacility: connection?.receivingFacility ?? '',
  isActive: connection?.isActive ?? true,
  codes: connection?.codes.map(({ testId, code }) => ({ testId, code })) ?? [],
});

/**
 * 'Add lab' and 'Edit' (labs.interface): where a reference lab listens for orders (MLLP), the
 * message it takes and what it calls itself in MSH-5/6, and its code for each catalogue test it
 * performs. Orders of a coded test go out by themselves once saved; tests not listed stay here.
 */
export function LabConnectionDialog({ connection, onClose }: { connection: TLabConnection | null; onClose: () => void }) {
  const create = useCreateLabConnection();
  const update = useUpdateLabConnection();
  const tests = useLabTests();
  const [stale, setStale] = useState<string | null>(null);
  const saving = create.isPending || update.isPending;
  const form = useAppForm<TValues, TSaveLabConnectionInput>({ schema: ZForm, defaultValues: valuesOf(connection), fields: FIELDS });
  const codes = useFieldArray({ control: form.control, name: 'codes' });
  const {
    register,
    formState: { errors },
  } = form;
  const codesError = (errors.codes as FieldError | undefined)?.message ?? errors.codes?.root?.message;
  const chosen = form.watch('codes').map((row) => row.testId);
  // Without the catalogue, the tests already coded are still offered: their names came with the lab.
  const catalogue = tests.data ?? (connection?.codes ?? []).map((code) => ({ id: code.testId, name: code.testName, isActive: true }));
  // Retired tests are offered only to the rows that already code them: an edit keeps what it had.
  const offered = catalogue.filter((test) => test.isActive || chosen.includes(test.id));

  const failed = (error: unknown) => {
    const described = form.failed(error, connection ? 'Could not save the lab' : 'Could not add the lab', { withReason: true });
    if (described && apiErrorCode(error) === 'record.stale') {
      setStale(describeApiError(error).message);
      form.setFormError(null);
    }
  };
  const onSubmit = form.onSubmit((body) => {
    const saved = (lab: TLabConnection) => {
      const coded = lab.codes.length === 1 ? '1 test' : `${lab.codes.length} tests`;
      toast({ title: connection ? 'Lab saved' : 'Lab added', description: `${lab.name}: ${coded} coded.`, variant: 'success' });
      onClose();
    };
    if (connection) update.mutate({ id: connection.id, body: { ...body, updatedAt: connection.updatedAt } }, { onSuccess: saved, onError: failed });
    else create.mutate(body, { onSuccess: saved, onError: failed });
  });

  return (
    <FormDialog
      onClose={onClose}
      // Room under a field focused for its error: the sticky buttons would cover it.
      className="max-w-2xl scroll-pb-28"
      testId="lab-connection-dialog"
      title={connection ? `Edit ${connection.name}` : 'Add lab'}
      description="Where the lab receives orders over HL7 MLLP, and its code for each test it performs. Fields marked * are required."
    >
      <form noValidate autoComplete="off" aria-label={connection ? 'Edit lab' : 'Add lab'} className="space-y-4" onSubmit={onSubmit}>
        {stale && <StaleBanner message={stale} reloadLabel="Close and reopen" reloading={false} onReload={onClose} testId="lab-connection-stale" />}
        <FormField id="lab-connection-name" label="Name" required error={errors.name?.message} testId="name">
          {(control) => <Input {...control} maxLength={100} placeholder="e.g. Northwind Lab" {...register('name')} disabled={saving} />}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <FormField id="lab-connection-host" label="Host" required error={errors.host?.message} testId="host" hint="The lab's address, or the tunnel's.">
            {(control) => (
              <Input {...control} maxLength={255} spellCheck={false} placeholder="e.g. hl7.northwind-lab.example" {...register('host')} disabled={saving} />
            )}
          </FormField>
          <FormField id="lab-connection-port" label="Port" required error={errors.port?.message} testId="port">
            {(control) => (
              <Input {...control} type="number" inputMode="numeric" min={1} max={65535} placeholder="2575" {...register('port')} disabled={saving} />
            )}
          </FormField>
        </div>
        <FormField
          id="lab-connection-type"
          label="Message"
          required
          error={errors.messageType?.message}
          testId="messageType"
          hint="The one the lab asks for: ORM^O01 (HL7 2.3 and later) is the most common; OML^O21 is HL7 2.5's."
        >
          {(control) => (
            <select {...control} className={SELECT_CLASS} {...register('messageType')} disabled={saving}>
              {LAB_ORDER_MESSAGE_TYPES.map((type) => (
                <option key={type} value={type}>
                  {MESSAGE_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            id="lab-connection-application"
            label="Receiving application"
            error={errors.receivingApplication?.message}
            testId="receivingApplication"
            hint="MSH-5, as the lab asks; blank if it does not."
          >
            {(control) => <Input {...control} maxLength={100} spellCheck={false} {...register('receivingApplication')} disabled={saving} />}
          </FormField>
          <FormField
            id="lab-connection-facility"
            label="Receiving facility"
            error={errors.receivingFacility?.message}
            testId="receivingFacility"
            hint="MSH-6, as the lab asks; blank if it does not."
          >
            {(control) => <Input {...control} maxLength={100} spellCheck={false} {...register('receivingFacility')} disabled={saving} />}
          </FormField>
        </div>
        <ActiveCheckbox
          id="lab-connection-active"
          label="Send orders to this lab"
          hint="Untick to stop: new orders of its tests stay in the clinic; those already sent are not recalled."
          {...register('isActive')}
          disabled={saving}
        />

        <section aria-labelledby="lab-connection-codes-heading" className="space-y-3">
          <div>
            <h3 id="lab-connection-codes-heading" className="text-sm font-semibold text-slate-900">
              Test codes
            </h3>
            <p className="text-xs text-slate-600">The lab&apos;s code for each test it performs. Orders of tests not listed are not sent.</p>
          </div>
          {tests.isPending ? (
            // The rows wait for the catalogue: a select drawn before its options would lose the test it codes.
            <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
              <Spinner className="size-4" />
              Loading the test catalogue…
            </p>
          ) : codes.fields.length === 0 ? (
            <p className="rounded-md border border-dashed p-3 text-center text-sm text-slate-600" data-testid="lab-codes-empty">
              No tests coded yet: nothing is sent to this lab.
            </p>
          ) : (
            <ul className="space-y-2" aria-label="Test codes">
              {codes.fields.map((row, i) => {
                const rowErrors = errors.codes?.[i];
                const testName = offered.find((test) => test.id === chosen[i])?.name ?? `Row ${i + 1}`;
                return (
                  <li
                    key={row.id}
                    data-testid="lab-code-row"
                    className="grid grid-cols-[minmax(0,1fr)_auto] gap-2 rounded-md bg-slate-50 p-2 sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)_auto] sm:items-start"
                  >
                    <FormField
                      id={`lab-code-${i}-test`}
                      label={<span className="text-xs">Test</span>}
                      required
                      error={rowErrors?.testId?.message}
                      testId={`codes.${i}.testId`}
                      className="col-span-2 space-y-1 sm:col-span-1"
                    >
                      {(control) => (
                        <select {...control} className={SELECT_CLASS} {...register(`codes.${i}.testId`)} disabled={saving}>
                          <option value="">Choose a test</option>
                          {offered.map((test) => (
                            <option key={test.id} value={test.id}>
                              {test.name}
                              {test.isActive ? '' : ' (retired)'}
                            </option>
                          ))}
                        </select>
                      )}
                    </FormField>
                    <FormField
                      id={`lab-code-${i}-code`}
                      label={<span className="text-xs">Lab&apos;s code</span>}
                      required
                      error={rowErrors?.code?.message}
                      testId={`codes.${i}.code`}
                      className="space-y-1"
                    >
                      {(control) => (
                        <Input {...control} maxLength={50} spellCheck={false} placeholder="e.g. NW-BMP" {...register(`codes.${i}.code`)} disabled={saving} />
                      )}
                    </FormField>
                    <div className="pt-5">
                      <Button
                        variant="ghost"
                        size="sm"
                        className="h-10"
                        disabled={saving}
                        aria-label={`Remove the code of ${testName}`}
                        onClick={() => codes.remove(i)}
                      >
                        <Trash2 aria-hidden="true" />
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
          {tests.isError && (
            <p className="text-sm text-amber-900" data-testid="lab-codes-catalogue-error">
              The test catalogue could not be read: only the tests already coded are offered.
            </p>
          )}
          {codesError && (
            <p role="alert" data-testid="codes-error" className="text-sm text-red-700">
              {codesError}
            </p>
          )}
          <Button
            variant="outline"
            size="sm"
            disabled={saving || tests.isPending || codes.fields.length >= MAX_CODES}
            onClick={() => codes.append({ testId: '', code: '' })}
          >
            <Plus aria-hidden="true" />
            Add test code
          </Button>
        </section>

        {form.formError && <FormErrorAlert error={form.formError} testId="lab-connection-error" />}
        <FormDialogFooter saving={saving} blocked={Boolean(stale)} submitLabel={connection ? 'Save lab' : 'Add lab'} onCancel={onClose} />
      </form>
    </FormDialog>
  );
}
