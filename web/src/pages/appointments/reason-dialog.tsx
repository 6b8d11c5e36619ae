import { useId, useState } from 'react';
import { APPOINTMENT_LIMITS } from '#domain/appointments';
import { Button } from '../../components/ui/button.tsx';
import { DialogFooter } from '../../components/ui/dialog.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';

/**
 * Confirms a cancellation or a no-show, with an optional reason the server keeps with the
 * appointment (at most 500 characters). Both are final, so the user says so twice.
 */
export function ReasonDialog({
  open,
  title,
  confirmLabel,
  subject,
  pending,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  confirmLabel: string;
  /** Which appointment: the patient as the reader may see them, and its time. */
  subject: string;
  pending: boolean;
  onConfirm: (reason: string | null) => void;
  onClose: () => void;
}) {
  const id = useId();
  // One optional field with nothing to check and no server errors to place: plain state, so the
  // appointments screen does not load the form library for it.
  const [reason, setReason] = useState('');
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      closeOnOutsideClick
      testId="reason-dialog"
      title={title}
      description={`${subject}. This cannot be undone; book a new appointment if plans change.`}
    >
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm(reason.trim() || null);
        }}
      >
        <div className="space-y-2">
          <Label htmlFor={`${id}-reason`}>Reason (optional)</Label>
          <Textarea
            id={`${id}-reason`}
            rows={3}
            maxLength={APPOINTMENT_LIMITS.statusReason}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Keep appointment
          </Button>
          <Button type="submit" variant="destructive" disabled={pending}>
            {pending ? 'Saving...' : confirmLabel}
          </Button>
        </DialogFooter>
      </form>
    </FormDialog>
  );
}
