import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type { TNote } from '#domain/notes';
import { reloadNote } from '../../api/notes/note.ts';
import { invalidateNotes } from '../../api/notes/notes.ts';
import { isStaleNote, useUpdateNote } from '../../api/notes/update-note.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { describeApiError, isUnauthorizedError } from '../../lib/api-errors.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { notePatientShown } from './note-format.ts';

/** domain/notes.ts ZUpdateNote: an amendment's reason is at most this long. */
const REASON_MAX = 500;

/**
 * An admin amends a finalized note (docs/decisions/notes.md): the corrected text and, required,
 * why. The note stays finalized and shows 'Amended'; its history keeps the finalized text.
 */
export function AmendNoteDialog({ note: initialNote, onClose }: { note: TNote; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState(initialNote);
  const [content, setContent] = useState(initialNote.content);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ content?: string | undefined; reason?: string | undefined }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const [reloading, setReloading] = useState(false);
  const update = useUpdateNote();

  const submit = () => {
    setFailure(null);
    const found = {
      content: content.trim() === '' ? 'Content is required' : content === note.content ? 'Change the note to amend it' : undefined,
      reason: reason.trim() === '' ? 'A reason is required' : undefined,
    };
    setErrors(found);
    if (found.content || found.reason) return;
    update.mutate({ id: note.id, changes: { updatedAt: note.updatedAt, content, amendmentReason: reason.trim() } }, {
      onSuccess: () => {
        toast({ title: 'Success', description: 'Note updated successfully', variant: 'success' });
        onClose();
      },
      onError: (error) => {
        const described = reportMutationError(error, 'Failed to update note', { withReason: true });
        if (!described) return;
        setStale(isStaleNote(error));
        const placed = {
          content: described.fieldErrors.find((e) => e.path === 'content')?.message,
          reason: described.fieldErrors.find((e) => e.path === 'amendmentReason')?.message,
        };
        setErrors(placed);
        if (!placed.content && !placed.reason) setFailure(described.message);
      },
    });
  };

  const reload = async () => {
    setReloading(true);
    try {
      const fresh = await reloadNote(queryClient, note.id);
      setNote(fresh);
      setContent(fresh.content);
      setFailure(null);
      setStale(false);
      void invalidateNotes(queryClient);
    } catch (error) {
      if (!isUnauthorizedError(error)) setFailure(describeApiError(error).message);
    } finally {
      setReloading(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl" data-testid="amend-dialog" onInteractOutside={(event) => event.preventDefault()}>
        <DialogHeader className="pr-6">
          <DialogTitle>Amend Note</DialogTitle>
          <DialogDescription>
            {note.noteType} for {notePatientShown(note)}. The note stays finalized; the finalized text stays readable in its history.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <FormField id="amend-content" label="Content" required error={errors.content} testId="amend-content">
            {(control) => (
              <Textarea
                {...control}
                rows={8}
                value={content}
                disabled={update.isPending}
                onChange={(event) => {
                  setContent(event.target.value);
                  setErrors((e) => ({ ...e, content: undefined }));
                }}
              />
            )}
          </FormField>
          <FormField id="amend-reason" label="Reason for the amendment" required error={errors.reason} testId="amend-reason">
            {(control) => (
              <Textarea
                {...control}
                rows={2}
                maxLength={REASON_MAX}
                placeholder="e.g. Corrected the dosage"
                value={reason}
                disabled={update.isPending}
                onChange={(event) => {
                  setReason(event.target.value);
                  setErrors((e) => ({ ...e, reason: undefined }));
                }}
              />
            )}
          </FormField>
          {failure && (
            <div role="alert" className="flex flex-col gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800 sm:flex-row sm:items-center">
              <p className="flex-1">{failure}</p>
              {stale && (
                <Button variant="outline" size="sm" onClick={() => void reload()} disabled={reloading}>
                  {reloading ? <Spinner className="size-4" /> : <RefreshCw aria-hidden="true" />}
                  Reload note
                </Button>
              )}
            </div>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={update.isPending}>Cancel</Button>
            <Button type="submit" disabled={update.isPending || reloading}>
              {update.isPending && <Spinner className="size-4 text-white" />}
              {update.isPending ? 'Saving...' : 'Save Amendment'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
