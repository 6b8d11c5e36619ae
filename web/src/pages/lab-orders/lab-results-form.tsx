import { useQueryClient } from '@tanstack/react-query';
import { Paperclip, Plus, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { useFieldArray, type FieldError } from 'react-hook-form';
import { LAB_FLAGS, type TLabFlag } from '#domain/lab-flags';
import { LAB_LIMITS, LAB_MAX_ANALYTES, type TLabOrderDetail, type TLabTest } from '#domain/labs';
import { useEnterLabResults } from '../../api/labs/enter-lab-results.ts';
import { reloadLabOrder } from '../../api/labs/lab-order.ts';
import { isStaleLabOrder } from '../../api/labs/move-lab-order.ts';
import { usePatient } from '../../api/patients/patient.ts';
import { clinicToday } from '#domain/clinic-time';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { StickyDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { StaleBanner } from '../../components/ui/stale-banner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { FileUpload } from '../../components/upload/file-upload.tsx';
import { useFileUploader } from '../../components/upload/use-file-uploader.ts';
import { describeApiError, isUnauthorizedError } from '../../lib/api-errors.ts';
import { signedInUserId } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm, type TAppForm } from '../../lib/use-app-form.ts';
import { cn } from '../../lib/utils.ts';
import { LabFlagBadge } from './lab-badges.tsx';
import { criticalNextStep, FLAG_WORDS, formatCritical, formatReference } from './lab-format.ts';
import {
  blankLine,
  isCorrection,
  labSubjectOf,
  liveFlag,
  resultsCheck,
  resultsFormValues,
  resultsPayload,
  ZResultsForm,
  type TResultLine,
  type TResultsFormOutput,
  type TResultsFormValues,
} from './lab-results-values.ts';

/** The server takes at most five report files per order. */
const MAX_FILES = 5;
const TEXT_FLAGS: readonly TLabFlag[] = ['N', 'A'];
const UPLOAD_HINT = "The lab's report: PDF, JPG, PNG or DOC, up to 10 MB each";

type TResultsForm = TAppForm<TResultsFormValues, TResultsFormOutput>;

type TFormOptions = Parameters<typeof useAppForm<TResultsFormValues, TResultsFormOutput>>[0];
/** The form's own fields, for the server's field errors: `results.N.value` is line N's value (an order takes at most 40). */
const FORM_FIELDS = ['results', 'resultsText', 'correctionReason'].concat(
  Array.from({ length: LAB_MAX_ANALYTES }, (_, i) => [`results.${i}.value`, `results.${i}.name`, `results.${i}.unit`, `results.${i}.flag`]).flat(),
) as TFormOptions['fields'];
/** An error naming a line's analyte is shown under its value. */
const SERVER_PATHS = Object.fromEntries(
  Array.from({ length: LAB_MAX_ANALYTES }, (_, i) => [`results.${i}.analyteId`, `results.${i}.value`]),
) as TFormOptions['serverPaths'];

/**
 * The results of one order, on one keyboard form (issue 30): a line per analyte of its test
 * (a number for a numeric one, text for a text one) with its reference range and the flag the
 * value will get, computed as it is typed by the rule the server uses (the patient's sex and
 * age); an optional flag of one's own; the report's text and the lab's file. A test ordered as
 * free text takes named lines. A correction says why.
 */
export function LabResultsForm({
  order: initialOrder,
  test,
  timeZone,
  onDone,
}: {
  order: TLabOrderDetail;
  test: TLabTest | null;
  timeZone: string;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [order, setOrder] = useState(initialOrder);
  const [stale, setStale] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  const correcting = isCorrection(order);
  const patient = usePatient(order.patientId);
  const subject = labSubjectOf(patient.data, clinicToday(timeZone));
  const [kept, setKept] = useState(order.attachments);
  const [slots] = useState(() => Math.max(1, MAX_FILES - order.attachments.length));
  const uploader = useFileUploader({ purpose: 'patient-attachment', maxFiles: slots });
  const files = useRef(0);
  files.current = kept.length + uploader.attachments.length;
  const form = useAppForm<TResultsFormValues, TResultsFormOutput>({
    schema: ZResultsForm,
    check: resultsCheck({ correcting, files: () => files.current }),
    defaultValues: resultsFormValues(order, test),
    fields: FORM_FIELDS,
    serverPaths: SERVER_PATHS,
  });
  const lines = useFieldArray({ control: form.control, name: 'results' });
  const enter = useEnterLabResults();
  const busy = enter.isPending || reloading;
  const {
    register,
    formState: { errors },
  } = form;
  const resultsError = (errors.results as FieldError | undefined)?.message ?? errors.results?.root?.message;

  const onSubmit = form.onSubmit((values) => {
    const attachments = [...kept, ...uploader.attachments.map((file) => file.objectPath)];
    enter.mutate(
      { id: order.id, body: resultsPayload(values, { order, attachments }) },
      {
        onSuccess: (saved) => {
          toast({
            title: correcting ? 'Results corrected' : 'Results saved',
            description: saved.criticalAlertId
              ? `${saved.orderName} for ${saved.patientName}: a critical value. ${criticalNextStep(saved, signedInUserId())}`
              : `${saved.orderName} for ${saved.patientName}`,
            variant: 'success',
          });
          uploader.reset();
          onDone();
        },
        onError: (error) => {
          const described = form.failed(error, correcting ? 'Failed to correct the results' : 'Failed to save the results', { withReason: true });
          if (described && isStaleLabOrder(error)) setStale(described.message);
        },
      },
    );
  });

  const reload = async () => {
    setReloading(true);
    try {
      const fresh = await reloadLabOrder(queryClient, order.id);
      setOrder(fresh);
      setKept(fresh.attachments);
      form.reset(resultsFormValues(fresh, test));
      form.setFormError(null);
      setStale(null);
    } catch (error) {
      if (!isUnauthorizedError(error)) form.setFormError(describeApiError(error));
    } finally {
      setReloading(false);
    }
  };

  return (
    <form noValidate autoComplete="off" aria-label={correcting ? 'Correct results' : 'Enter results'} className="space-y-5" onSubmit={onSubmit}>
      {test ? (
        <CatalogueLines form={form} test={test} subject={subject} busy={busy} />
      ) : (
        <FreeTextLines
          form={form}
          busy={busy}
          ids={lines.fields.map((line) => line.id)}
          onAdd={() => lines.append(blankLine())}
          onRemove={(i) => lines.remove(i)}
        />
      )}
      {test && <SubjectNotice unread={patient.isError} sexUnknown={patient.data?.sex === null} />}
      {resultsError && (
        <p role="alert" data-testid="results-error" className="text-sm text-red-700">
          {resultsError}
        </p>
      )}

      <FormField id="lab-results-text" label="Report text" error={errors.resultsText?.message} testId="resultsText">
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            maxLength={LAB_LIMITS.resultsText}
            placeholder="The lab's comments: specimen quality, repeats, interpretation…"
            {...register('resultsText')}
            disabled={busy}
          />
        )}
      </FormField>

      <ReportFiles uploader={uploader} kept={kept} onKept={setKept} busy={busy} />

      {correcting && (
        <FormField id="lab-correction-reason" label="Reason for the correction" required error={errors.correctionReason?.message} testId="correctionReason">
          {(control) => (
            <Textarea
              {...control}
              rows={2}
              maxLength={LAB_LIMITS.reason}
              placeholder="e.g. Transcription error: the lab's corrected report"
              {...register('correctionReason')}
              disabled={busy}
            />
          )}
        </FormField>
      )}

      {stale && <StaleBanner message={stale} reloadLabel="Reload order" reloading={reloading} onReload={() => void reload()} testId="lab-results-stale" />}
      {form.formError && !stale && <FormErrorAlert error={form.formError} testId="lab-results-error" />}

      <StickyDialogFooter>
        <Button variant="outline" onClick={onDone} disabled={enter.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy || uploader.busy}>
          {enter.isPending && <Spinner className="size-4 text-white" />}
          {uploader.busy ? 'Uploading…' : enter.isPending ? 'Saving…' : correcting ? 'Save Correction' : 'Save Results'}
        </Button>
      </StickyDialogFooter>
    </form>
  );
}

/** The report files: those the order keeps (each removable) and new uploads, five in all. */
function ReportFiles({
  uploader,
  kept,
  onKept,
  busy,
}: {
  uploader: ReturnType<typeof useFileUploader>;
  kept: string[];
  onKept: (kept: string[]) => void;
  busy: boolean;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Report files</legend>
      {kept.length > 0 && (
        <ul className="space-y-2" aria-label="Files attached" data-testid="kept-report-files">
          {kept.map((path, i) => (
            <li key={path} className="flex items-center gap-2 rounded-md border p-2 text-sm">
              <Paperclip className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
              <a href={path} target="_blank" rel="noopener noreferrer" className="min-w-0 flex-1 truncate font-medium text-blue-800 hover:underline">
                Report file {i + 1}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
              <Button
                variant="ghost"
                size="sm"
                disabled={busy}
                aria-label={`Remove report file ${i + 1}`}
                onClick={() => onKept(kept.filter((other) => other !== path))}
              >
                <X aria-hidden="true" />
                <span className="sr-only sm:not-sr-only">Remove</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <FileUpload
        uploader={uploader}
        purpose="patient-attachment"
        label="Attach report"
        hint={UPLOAD_HINT}
        disabled={busy || kept.length + uploader.entries.length >= MAX_FILES}
      />
    </fieldset>
  );
}

/** Why flags may not show as values are typed: the record could not be read, or gives no sex. */
function SubjectNotice({ unread, sexUnknown }: { unread: boolean; sexUnknown: boolean }) {
  if (unread) {
    return (
      <p className="text-xs text-slate-600" data-testid="no-live-flags">
        The patient's record could not be read, so flags are shown once the results are saved.
      </p>
    );
  }
  return sexUnknown ? <p className="text-xs text-slate-600">The patient's record gives no sex: only ranges for either sex apply.</p> : null;
}

/** The flag override's choices: a number may take any flag; text only normal or abnormal. */
function FlagSelect({ form, index, line, label, busy }: { form: TResultsForm; index: number; line: TResultLine; label: string; busy: boolean }) {
  const choices = line.kind === 'text' && line.analyteId !== null ? TEXT_FLAGS : LAB_FLAGS;
  return (
    <select
      aria-label={label}
      data-testid="flag-override"
      className={cn(SELECT_CLASS, 'h-9')}
      {...form.register(`results.${index}.flag`, { onChange: () => form.setValue(`results.${index}.flagSource`, 'entered') })}
      disabled={busy}
    >
      <option value="">{line.kind === 'numeric' ? 'As computed' : 'No flag'}</option>
      {choices.map((flag) => (
        <option key={flag} value={flag}>
          {flag} {FLAG_WORDS[flag]}
        </option>
      ))}
    </select>
  );
}

/** One line per analyte of the order's test, with its range and the flag its value gets as it is typed. */
function CatalogueLines({ form, test, subject, busy }: { form: TResultsForm; test: TLabTest; subject: ReturnType<typeof labSubjectOf>; busy: boolean }) {
  const values = form.watch('results');
  const errors = form.formState.errors.results;
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium">Results</legend>
      <div
        className="hidden grid-cols-[minmax(0,1.3fr)_minmax(0,1fr)_minmax(0,1.1fr)_10rem] gap-3 border-b pb-1 text-xs font-medium text-slate-600 sm:grid"
        aria-hidden="true"
      >
        <span>Analyte</span>
        <span>Value</span>
        <span>Flag</span>
        <span>Flag override</span>
      </div>
      <ul className="divide-y" data-testid="result-lines">
        {values.map((line, i) => {
          const analyte = test.analytes.find((a) => a.id === line.analyteId);
          const { range, flag: computed } = liveFlag(line, analyte, subject);
          const shown = line.flag || computed;
          const id = `lab-value-${i}`;
          const error = errors?.[i]?.value?.message;
          const reference = [formatReference(range), formatCritical(range)].filter(Boolean).join(', ');
          const describedBy = [reference ? `${id}-range` : null, `${id}-flag`, error ? `${id}-error` : null].filter(Boolean).join(' ');
          return (
            <li
              key={line.analyteId ?? i}
              data-testid="result-line"
              data-analyte={line.name}
              className="grid grid-cols-2 gap-x-3 gap-y-1.5 py-2.5 sm:grid-cols-[minmax(0,1.3fr)_minmax(0,1fr)_minmax(0,1.1fr)_10rem] sm:items-start"
            >
              <div className="col-span-2 min-w-0 sm:col-span-1">
                <label htmlFor={id} className="text-sm font-medium text-slate-900">
                  {line.name}
                  {line.unit && <span className="font-normal text-slate-600"> ({line.unit})</span>}
                </label>
                {reference && (
                  <p id={`${id}-range`} className="text-xs text-slate-600">
                    Ref. {reference}
                  </p>
                )}
              </div>
              <div>
                <Input
                  id={id}
                  data-testid="result-value"
                  {...(line.kind === 'numeric' ? { type: 'number', step: 'any', inputMode: 'decimal' as const } : { maxLength: LAB_LIMITS.valueText })}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={describedBy}
                  className="h-9"
                  {...form.register(`results.${i}.value`)}
                  disabled={busy}
                />
                {error && (
                  <p id={`${id}-error`} data-testid={`results.${i}.value-error`} className="mt-1 text-sm text-red-700">
                    {error}
                  </p>
                )}
              </div>
              <p
                id={`${id}-flag`}
                className="order-4 col-span-2 flex flex-wrap items-center gap-1 text-xs text-slate-600 sm:order-none sm:col-span-1 sm:min-h-9"
                data-testid="live-flag"
                data-flag={shown || ''}
                aria-live="polite"
              >
                {shown ? (
                  <>
                    <LabFlagBadge flag={shown} />
                    <span>{line.flag ? (line.flagSource === 'lab' ? 'by the lab' : 'entered') : 'computed'}</span>
                  </>
                ) : line.value.trim() && line.kind === 'numeric' && subject && !range ? (
                  'No range applies'
                ) : null}
              </p>
              <div className="order-3 sm:order-none">
                <FlagSelect form={form} index={i} line={line} label={`Flag override for ${line.name}`} busy={busy} />
              </div>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/** A test ordered as free text: lines named as the lab names them, each with its value, unit and flag. */
function FreeTextLines({
  form,
  busy,
  ids,
  onAdd,
  onRemove,
}: {
  form: TResultsForm;
  busy: boolean;
  ids: string[];
  onAdd: () => void;
  onRemove: (index: number) => void;
}) {
  const values = form.watch('results');
  const errors = form.formState.errors.results;
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium">Results</legend>
      <p className="mb-2 text-xs text-slate-600">
        This test is not in the catalogue: name each line as the lab reports it. A value that reads as a number is kept as one.
      </p>
      <ul className="space-y-3" data-testid="result-lines">
        {ids.map((key, i) => {
          const line = values[i] ?? blankLine();
          const nameError = errors?.[i]?.name?.message;
          const valueError = errors?.[i]?.value?.message;
          return (
            <li
              key={key}
              data-testid="result-line"
              className="grid gap-2 rounded-md border p-3 sm:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_6rem_9rem_auto] sm:items-start"
            >
              <FormField id={`lab-line-name-${i}`} label="Name" error={nameError} testId={`results.${i}.name`}>
                {(control) => <Input {...control} className="h-9" maxLength={LAB_LIMITS.analyteName} {...form.register(`results.${i}.name`)} disabled={busy} />}
              </FormField>
              <FormField id={`lab-line-value-${i}`} label="Value" error={valueError} testId={`results.${i}.value`}>
                {(control) => <Input {...control} className="h-9" maxLength={LAB_LIMITS.valueText} {...form.register(`results.${i}.value`)} disabled={busy} />}
              </FormField>
              <FormField id={`lab-line-unit-${i}`} label="Unit">
                {(control) => <Input {...control} className="h-9" maxLength={LAB_LIMITS.unit} {...form.register(`results.${i}.unit`)} disabled={busy} />}
              </FormField>
              <div className="space-y-2">
                <p className="text-sm font-medium leading-none" aria-hidden="true">
                  Flag
                </p>
                <FlagSelect form={form} index={i} line={line} label={`Flag of line ${i + 1}`} busy={busy} />
              </div>
              <div className="sm:pt-6">
                <Button variant="ghost" size="sm" disabled={busy || ids.length <= 1} aria-label={`Remove line ${i + 1}`} onClick={() => onRemove(i)}>
                  <X aria-hidden="true" />
                  <span className="sm:sr-only">Remove</span>
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      <Button variant="outline" size="sm" className="mt-3" disabled={busy} onClick={onAdd}>
        <Plus aria-hidden="true" />
        Add line
      </Button>
    </fieldset>
  );
}
