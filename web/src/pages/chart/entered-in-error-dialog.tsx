import { useState } from 'react';
import { CHART_LIMITS } from '#domain/chart';
import { useChangeEntry, type TChartListPath } from '../../api/chart/entries.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormDialog, StickyDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { describeApiError, type TDisplayError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';

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
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<TDisplayError | null>(null);
  const submit = () => {
    if (!reason.trim()) return setProblem('Say why this entry was entered in error');
    setProblem(null);
    change.mutate(
      { patientId, entryId: entry.id, change: { ...IN_ERROR[list], reason: reason.trim(), version: entry.version } },
      {
        onSuccess: () => {
          toast({ title: 'Marked entered in error', description: name, variant: 'success' });
          onClose();
        },
        onError: (error) => setFailure(describeApiError(error)),
      },
    );
  };
  return (
    <FormDialog
      onClose={onClose}
      title={`${name}: entered in error`}
      description="It stays on the chart, struck through, with your reason in its history."
      testId="entered-in-error-dialog"
    >
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <FormField id="error-reason" label="Why" required error={problem ?? undefined} testId="reason">
          {(control) => (
            <Textarea
              {...control}
              rows={2}
              maxLength={CHART_LIMITS.reason}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              placeholder="e.g. Recorded on the wrong patient"
            />
          )}
        </FormField>
        {failure && <FormErrorAlert error={failure} testId="entered-in-error-error" />}
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
