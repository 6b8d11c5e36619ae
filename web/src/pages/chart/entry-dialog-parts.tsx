import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { Button } from '../../components/ui/button.tsx';
import { StickyDialogFooter } from '../../components/ui/form-dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';

/** What a chart form tells its user about the entry she writes: confirmed with her name, or a draft for a nurse (CHART_ENTRY_WORKFLOW). */
export const entryDialogDescription = (user: TCurrentUser) =>
  can(user, 'chart.confirm') ? 'Recorded as confirmed, with your name.' : 'Recorded as a draft: a nurse or an admin confirms it.';

/** Every chart form's footer: Cancel, and its submit button with the spinner while it saves. */
export function EntryDialogFooter({ busy, submitLabel, onClose }: { busy: boolean; submitLabel: string; onClose: () => void }) {
  return (
    <StickyDialogFooter>
      <Button variant="outline" onClick={onClose} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" disabled={busy}>
        {busy && <Spinner className="size-4 text-white" />}
        {submitLabel}
      </Button>
    </StickyDialogFooter>
  );
}
