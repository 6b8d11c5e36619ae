import { CHART_LIMITS, ZInErrorReason } from '#domain/chart';
import { useChangeEntry, type TChartListPath } from '../../api/chart/entries.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormDialog, StickyDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

/** Which field marks an entry of each list entered in error (a problem's is its verification). */
const IN_ERROR: Record<TChartListPath, object> = {
  allergies: { status: 'entered_in_error' },
  problems: { verification: 'entered_in_error' },
  medications: { status: 'entered_in_error' },
  vitals: { status: 'entered_in_error' },
};

/**
 * An entry recorded by mistake is marked entered in error, with why: it stays on the chart,
 * struck through, and in its history; it leaves the banner. Nothing on the chart is deleted.
 */
export function EnteredInErrorDialog({
  patientId,
  list,
  entry,
  name,
  onClose,
}: {
  patientId: string;
  list: TChartListPath;
  entry: { id: string; version: number };
  name: string;
  onClose: () => void;
}) {
  const change = useChangeEntry(list);
  const form = useAppForm<{ reason: string }>({ schema: ZInErrorReason, defaultValues: { reason: '' }, fields: ['reason'] });
  const onSubmit = form.onSubmit(({ reason }) =>
    change.mutate(
      { patientId, entryId: entry.id, change: { ...IN_ERROR[list], reason, version: entry.version } },
      {
        onSuccess: () => {
          toast({ title: 'Marked entered in error', description: name, variant: 'success' });
          onClose();
        },
        onError: (error) => form.failed(error, 'Could not mark it entered in error', { withReason: true }),
      },
    ),
  );
  return (
    <FormDialog
      onClose={onClose}
      title={`${name}: entered in error`}
      description="It stays on the chart, struck through, with your reason in its history."
      testId="entered-in-error-dialog"
    >
      <form noValidate className="space-y-4" onSubmit={onSubmit}>
        <FormField id="error-reason" label="Why" required error={form.formState.errors.reason?.message} testId="reason">
          {(control) => (
            <Textarea {...control} rows={2} maxLength={CHART_LIMITS.reason} placeholder="e.g. Recorded on the wrong patient" {...form.register('reason')} />
          )}
        </FormField>
        {form.formError && <FormErrorAlert error={form.formError} testId="entered-in-error-error" />}
        <StickyDialogFooter>
          <Button variant="outline" onClick={onClose} disabled={change.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive" disabled={change.isPending}>
            {change.isPending && <Spinner className="size-4 text-white" />}
            Mark entered in error
          </Button>
        </StickyDialogFooter>
      </form>
    </FormDialog>
  );
}
