import { z } from 'zod';
import { findMove, PRESCRIPTION_WORKFLOW } from '#domain/workflows';
import { PRESCRIPTION_LIMITS, type TPrescription } from '#domain/prescriptions';
import { optionalText } from '#domain/text';
import { useMovePrescription } from '../../api/prescriptions/prescription-writes.ts';
import { FormErrorAlert } from '../form-error-alert.tsx';
import { Button } from '../ui/button.tsx';
import { DialogFooter } from '../ui/dialog.tsx';
import { FormDialog } from '../ui/form-dialog.tsx';
import { FormField } from '../ui/form-field.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { Textarea } from '../ui/textarea.tsx';
import { apiErrorCode } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

/** How a prescription ends, or a draft is discarded (PRESCRIPTION_WORKFLOW's moves that take a reason). */
export type TPrescriptionEnd = 'completed' | 'discontinued' | 'entered_in_error' | 'cancelled';

const WORDS: Record<TPrescriptionEnd, { title: string; confirm: string; explain: string; placeholder: string; required: string; done: string }> = {
  discontinued: {
    title: 'Discontinue prescription',
    confirm: 'Discontinue',
    explain: 'It stops on her medication list, and her care team is told in her room.',
    placeholder: 'e.g. Rash after the second dose',
    required: 'Say why it is discontinued',
    done: 'Prescription discontinued',
  },
  entered_in_error: {
    title: 'Mark entered in error',
    confirm: 'Mark Entered in Error',
    explain: 'For a prescription that should never have been written: it leaves her medication list, and stays in the record, struck through.',
    placeholder: 'e.g. Written for the wrong patient',
    required: 'Say what was in error',
    done: 'Prescription marked entered in error',
  },
  completed: {
    title: 'Mark completed',
    confirm: 'Mark Completed',
    explain: 'The course is over: it stops on her medication list.',
    placeholder: 'Optional',
    required: '',
    done: 'Prescription completed',
  },
  cancelled: {
    title: 'Discard draft',
    confirm: 'Discard Draft',
    explain: 'Nobody will sign it. It stays in the record as discarded.',
    placeholder: 'Optional',
    required: '',
    done: 'Draft discarded',
  },
};

/** Ending a prescription (or discarding a draft), with its reason where the workflow asks for one. */
export function EndPrescriptionDialog({ rx, to, onClose }: { rx: TPrescription; to: TPrescriptionEnd; onClose: () => void }) {
  const move = useMovePrescription();
  const words = WORDS[to];
  const required = findMove(PRESCRIPTION_WORKFLOW, rx.status, to)?.reasonRequired === true;
  const schema = z.object({ reason: optionalText(PRESCRIPTION_LIMITS.statusReason).refine((reason) => !required || reason !== null, words.required) });
  const form = useAppForm<z.input<typeof schema>, z.output<typeof schema>>({ schema, defaultValues: { reason: '' }, fields: ['reason'] });
  const onSubmit = form.onSubmit(({ reason }) =>
    move.mutate(
      { id: rx.id, body: { status: to, reason, updatedAt: rx.updatedAt } },
      {
        onSuccess: () => {
          toast({ title: words.done, description: `${rx.number}: ${rx.medicationName}`, variant: 'success' });
          onClose();
        },
        onError: (error) => {
          const described = form.failed(error, `Could not ${words.title.toLowerCase()}`, { withReason: true });
          // Someone changed it meanwhile: the dialog closes on it as it is now.
          if (described && apiErrorCode(error) === 'record.stale') onClose();
        },
      },
    ),
  );
  const destructive = to === 'discontinued' || to === 'entered_in_error';
  return (
    <FormDialog
      onClose={onClose}
      testId="rx-end-dialog"
      title={words.title}
      description={`${rx.number}: ${rx.medicationName} for ${rx.patientName}. ${words.explain}`}
    >
      <form noValidate className="space-y-4" onSubmit={onSubmit}>
        <FormField id="rx-end-reason" label="Reason" required={required} error={form.formState.errors.reason?.message} testId="reason">
          {(control) => (
            <Textarea
              {...control}
              rows={3}
              maxLength={PRESCRIPTION_LIMITS.statusReason}
              placeholder={words.placeholder}
              {...form.register('reason')}
              disabled={move.isPending}
            />
          )}
        </FormField>
        {form.formError && <FormErrorAlert error={form.formError} testId="rx-end-error" />}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={move.isPending}>
            Keep It
          </Button>
          <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={move.isPending}>
            {move.isPending && <Spinner className="size-4 text-white" />}
            {words.confirm}
          </Button>
        </DialogFooter>
      </form>
    </FormDialog>
  );
}
