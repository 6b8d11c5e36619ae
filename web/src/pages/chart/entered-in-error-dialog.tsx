import { useState } from 'react';
import { CHART_LIMITS, type TAllergy } from '#domain/chart';
import { useChangeAllergy } from '../../api/chart/allergies.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormDialog, StickyDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { describeApiError, type TDisplayError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';

/**
 * An entry recorded by mistake is marked entered in error, with why: it stays on the chart,
 * struck through, and in its history; it leaves the banner. Nothing on the chart is deleted.
 */
export function EnteredInErrorDialog({ patientId, allergy, onClose }: { patientId: string; allergy: TAllergy; onClose: () => void }) {
  const change = useChangeAllergy();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<TDisplayError | null>(null);
  const submit = () => {
    if (!reason.trim()) return setProblem('Say why this entry was entered in error');
    setProblem(null);
    change.mutate(
      { patientId, entryId: allergy.id, change: { status: 'entered_in_error', reason: reason.trim(), version: allergy.version } },
      {
        onSuccess: () => {
          toast({ title: 'Marked entered in error', description: allergy.substance.name, variant: 'success' });
          onClose();
        },
        onError: (error) => setFailure(describeApiError(error)),
      },
    );
  };
  return (
    <FormDialog
      onClose={onClose}
      title={`${allergy.substance.name}: entered in error`}
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
