import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { z } from 'zod';
import { ZUpdateNote, type TNote } from '#domain/notes';
import { reloadNote } from '../../api/notes/note.ts';
import { invalidateNotes } from '../../api/notes/notes.ts';
import { isStaleNote, useUpdateNote } from '../../api/notes/update-note.ts';
import { Button } from '../../components/ui/button.tsx';
import { DialogFooter } from '../../components/ui/dialog.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { describeApiError, isUnauthorizedError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { notePatientShown } from './note-format.ts';

/** domain/notes.ts ZUpdateNote: an amendment's reason is at most this long. */
const REASON_MAX = 500;

/** The amendment's rules, the server's own: new content, and a reason ('A reason is required'). */
const ZAmendment = z.object({ content: ZUpdateNote.shape.content.unwrap(), reason: ZUpdateNote.shape.amendmentReason.unwrap() });
type TAmendmentInput = z.input<typeof ZAmendment>;

/**
 * An admin amends a finalized note (docs/decisions/notes.md): the corrected text and, required,
 * why. The note stays finalized and shows 'Amended'; its history keeps the finalized text.
 */
export function AmendNoteDialog({ note: initialNote, onClose }: { note: TNote; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState(initialNote);
  const [stale, setStale] = useState(false);
  const [reloading, setReloading] = useState(false);
  const update = useUpdateNote();
  const form = useAppForm<TAmendmentInput, z.output<typeof ZAmendment>>({
    schema: ZAmendment,
    // An amendment changes the text: the same text again is no amendment.
    check: ({ content }) => ({ content: content === note.content ? 'Change the note to amend it' : undefined }),
    defaultValues: { content: initialNote.content, reason: '' },
    fields: ['content', 'reason'],
    serverPaths: { amendmentReason: 'reason' },
  });
  const {
    register,
    formState: { errors },
    formError,
  } = form;

  const onSubmit = form.onSubmit(({ content, reason }) => {
    update.mutate(
      { id: note.id, changes: { updatedAt: note.updatedAt, content, amendmentReason: reason } },
      {
        onSuccess: () => {
          toast({ title: 'Success', description: 'Note updated successfully', variant: 'success' });
          onClose();
        },
        onError: (error) => {
          if (form.failed(error, 'Failed to update note', { withReason: true })) setStale(isStaleNote(error));
        },
      },
    );
  });

  const reload = async () => {
    setReloading(true);
    try {
      const fresh = await reloadNote(queryClient, note.id);
      setNote(fresh);
      form.reset({ ...form.getValues(), content: fresh.content });
      form.setFormError(null);
      setStale(false);
      void invalidateNotes(queryClient);
    } catch (error) {
      if (!isUnauthorizedError(error)) form.setFormError(describeApiError(error));
    } finally {
      setReloading(false);
    }
  };

  return (
    <FormDialog
      onClose={onClose}
      className="max-w-2xl"
      testId="amend-dialog"
      title="Amend Note"
      description={`${note.noteType} for ${notePatientShown(note)}. The note stays finalized; the finalized text stays readable in its history.`}
    >
      <form noValidate className="space-y-4" onSubmit={onSubmit}>
        <FormField id="amend-content" label="Content" required error={errors.content?.message} testId="amend-content">
          {(control) => <Textarea {...control} rows={8} {...register('content')} disabled={update.isPending} />}
        </FormField>
        <FormField id="amend-reason" label="Reason for the amendment" required error={errors.reason?.message} testId="amend-reason">
          {(control) => (
            <Textarea
              {...control}
              rows={2}
              maxLength={REASON_MAX}
              placeholder="e.g. Corrected the dosage"
              {...register('reason')}
              disabled={update.isPending}
            />
          )}
        </FormField>
        {formError && (
          <div role="alert" className="flex flex-col gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800 sm:flex-row sm:items-center">
            <p className="flex-1">{formError.message}</p>
            {stale && (
              <Button variant="outline" size="sm" onClick={() => void reload()} disabled={reloading}>
                {reloading ? <Spinner className="size-4" /> : <RefreshCw aria-hidden="true" />}
                Reload note
              </Button>
            )}
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending || reloading}>
            {update.isPending && <Spinner className="size-4 text-white" />}
            {update.isPending ? 'Saving...' : 'Save Amendment'}
          </Button>
        </DialogFooter>
      </form>
    </FormDialog>
  );
}
