import { useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { ROLE_LABELS } from '#domain/roles';
import type { TRestriction } from '#domain/restricted-records';
import { useRestriction, useSetRestriction } from '../../api/patients/restriction.ts';
import { useChatStaff } from '../../api/chat/chat-staff.ts';
import { staffName } from '../../api/staff/staff.ts';
import { ErrorState } from '../error-state.tsx';
import { FormErrorAlert } from '../form-error-alert.tsx';
import { Button } from '../ui/button.tsx';
import { DialogFooter } from '../ui/dialog.tsx';
import { FormDialog } from '../ui/form-dialog.tsx';
import { LoadingBlock, Spinner } from '../ui/spinner.tsx';
import { describeApiError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';

/**
 * An admin restricts a record and names its care team (issue 33): everyone else then sees
 * 'Restricted patient' and nothing of her, everywhere, unless they break the glass.
 */
export function RestrictionDialog({ patientId, name, user, onClose }: { patientId: string; name: string; user: TCurrentUser; onClose: () => void }) {
  const restriction = useRestriction(patientId);
  return (
    <FormDialog
      onClose={onClose}
      title={`Restrict ${name}'s record`}
      description="Only the care team sees a restricted record: everyone else sees 'Restricted patient', with no name, details, notes, lab results or chat rooms."
      className="max-w-lg"
      testId="restriction-dialog"
    >
      {restriction.isPending ? (
        <LoadingBlock />
      ) : restriction.isError ? (
        <ErrorState title="Could not load the restriction" error={restriction.error} onRetry={() => void restriction.refetch()} />
      ) : (
        <RestrictionForm patientId={patientId} current={restriction.data} user={user} onClose={onClose} />
      )}
    </FormDialog>
  );
}

function RestrictionForm({ patientId, current, user, onClose }: { patientId: string; current: TRestriction; user: TCurrentUser; onClose: () => void }) {
  const save = useSetRestriction();
  // Everyone who reads patient records may be on the team (the server's rule): schedulers and
  // admins too, not only the nurses and scribes a visit is assigned to (issue 50).
  const staff = useChatStaff(true);
  const [restricted, setRestricted] = useState<boolean>(true);
  // The admin who restricts is on the team unless she takes herself off.
  const [team, setTeam] = useState<Set<string>>(new Set(current.restricted ? current.careTeam.map((m) => m.id) : [user.id]));
  const candidates = [
    { id: user.id, name: `${[user.firstName, user.lastName].filter(Boolean).join(' ') || user.email} (you)`, role: user.role },
    ...current.careTeam.filter((m) => m.id !== user.id),
    ...(staff.data ?? [])
      .filter((m) => can(m, 'patients.read') && m.id !== user.id && !current.careTeam.some((c) => c.id === m.id))
      .map((m) => ({ id: m.id, name: staffName(m), role: m.role })),
  ];
  const toggle = (id: string) =>
    setTeam((before) => {
      const next = new Set(before);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const submit = () =>
    save.mutate(
      { patientId, restricted, careTeam: restricted ? [...team] : [] },
      {
        onSuccess: (saved) => {
          toast({ title: saved.restricted ? 'Record restricted' : 'Restriction lifted', variant: 'success' });
          onClose();
        },
      },
    );
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {save.isError && <FormErrorAlert error={describeApiError(save.error)} testId="restriction-error" />}
      <label className="flex items-start gap-2 text-sm font-medium">
        <input type="checkbox" className="mt-0.5 size-4 accent-red-700" checked={restricted} onChange={(event) => setRestricted(event.target.checked)} />
        Restricted record
      </label>
      {restricted && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Care team</legend>
          <ul className="max-h-60 space-y-1 overflow-y-auto rounded-md border p-2">
            {candidates.map((member) => (
              <li key={member.id}>
                <label className="flex items-center gap-2 rounded px-1 py-1 text-sm hover:bg-slate-50">
                  <input type="checkbox" className="size-4" checked={team.has(member.id)} onChange={() => toggle(member.id)} />
                  <span className="min-w-0 flex-1 truncate">{member.name}</span>
                  <span className="text-xs text-slate-600">{ROLE_LABELS[member.role]}</span>
                </label>
              </li>
            ))}
          </ul>
          {staff.isPending && <p className="text-xs text-slate-600">Loading the staff…</p>}
          {staff.isError && <p className="text-sm text-red-700">Could not load the staff: only the people above can be chosen now.</p>}
          <p className="text-xs text-slate-600">
            {team.size} {team.size === 1 ? 'person' : 'people'} on the care team. Anyone else needs emergency access.
          </p>
        </fieldset>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending} variant={restricted ? 'destructive' : 'default'}>
          {save.isPending && <Spinner className="size-4 text-white" />}
          {restricted ? 'Restrict' : current.restricted ? 'Lift the restriction' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}
