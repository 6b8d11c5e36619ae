import { useState } from 'react';
import { formatClinicTime } from '#domain/clinic-time';
import { ROLE_LABELS, ROLES, ZRole } from '#domain/roles';
import type { TAdminUser, TDirectoryEntry, TPasswordLink } from '#domain/users';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { useChangeRole } from '../../api/users/change-role.ts';
import { usePasswordLink } from '../../api/users/new-password-link.ts';
import { useSetUserActive } from '../../api/users/set-user-active.ts';
import { useResetUserFactors } from '../../api/users/reset-factors.ts';
import { ProofDialog } from '../../components/second-factor/proof-dialog.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast, withDetail } from '../../lib/toast.ts';
import { cn } from '../../lib/utils.ts';
import { displayName, UserIdentity } from './users-identity.tsx';
import { LinkPanel } from './users-link-panel.tsx';

/** A row of the staff directory (a scheduler's tab): who, in which role, active or not. Nothing to change. */
export function DirectoryRow({ row, isSelf }: { row: TDirectoryEntry; isSelf: boolean }) {
  return (
    <li className="p-3" data-testid="user-row">
      <UserIdentity name={displayName(row)} role={row.role} status={row.status} isSelf={isSelf} />
    </li>
  );
}

/** A row of the admin's list: the account's details and what an admin may change on it. */
export function UserRow({ row, isSelf }: { row: TAdminUser; isSelf: boolean }) {
  const { timeZone } = useClinicTimeZone();
  const changeRole = useChangeRole();
  const name = displayName(row);

  const onRole = (value: string) => {
    const role = ZRole.safeParse(value);
    if (!role.success || role.data === row.role) return;
    changeRole.mutate(
      { id: row.id, role: role.data },
      {
        onSuccess: () =>
          toast({
            title: 'Success',
            description: withDetail('User role updated successfully', `${name} is now ${ROLE_LABELS[role.data]}.`),
            variant: 'success',
          }),
        onError: (error) => reportMutationError(error, 'Failed to update user role', { withReason: true }),
      },
    );
  };

  return (
    <li className="flex flex-col gap-3 p-3 lg:flex-row lg:items-center lg:justify-between" data-testid="user-row" data-email={row.email}>
      <div className="min-w-0 space-y-1">
        <UserIdentity name={name} role={row.role} status={row.status} isSelf={isSelf} />
        <p className="break-all text-sm text-slate-700">{row.email}</p>
        <p className="text-xs text-slate-600">Last sign-in: {row.lastSignInAt ? formatClinicTime(row.lastSignInAt, timeZone) : 'Never'}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <label className="sr-only" htmlFor={`role-${row.id}`}>
          Role for {name}
        </label>
        <select
          id={`role-${row.id}`}
          className={cn(SELECT_CLASS, 'h-9 w-36')}
          value={row.role}
          disabled={changeRole.isPending}
          onChange={(e) => onRole(e.target.value)}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
        {row.status !== 'deactivated' && <LinkButton row={row} name={name} />}
        {row.hasSecondFactor && !isSelf && <ResetFactorsButton row={row} name={name} />}
        {!isSelf && <ActiveButton row={row} name={name} />}
      </div>
    </li>
  );
}

/**
 * 'Reset second factor' (a lost phone): after a fresh code of the admin's own, the user's apps
 * and recovery codes go and her sessions end; she is told, and enrols again.
 */
function ResetFactorsButton({ row, name }: { row: TAdminUser; name: string }) {
  const [open, setOpen] = useState(false);
  const reset = useResetUserFactors();
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        Reset second factor
      </Button>
      {open && (
        <ProofDialog
          title={`Reset ${name}'s second factor?`}
          description={`${row.email} loses every second factor (authenticator apps, passkeys and security keys) and every recovery code, and is signed out everywhere; then signs in with a password and sets up a new one. Confirm it is you.`}
          confirmLabel="Reset"
          destructive
          pending={reset.isPending}
          onClose={() => setOpen(false)}
          testId="reset-factors-dialog"
          onProof={(proof, failed) =>
            reset.mutate(
              { id: row.id, proof },
              {
                onSuccess: () => {
                  setOpen(false);
                  toast({ title: 'Second factor reset', description: `${name} was told, and sets up a new one at the next sign-in.`, variant: 'success' });
                },
                onError: failed,
              },
            )
          }
        />
      )}
    </>
  );
}

/** Deactivate or reactivate, after a confirmation. */
function ActiveButton({ row, name }: { row: TAdminUser; name: string }) {
  const [open, setOpen] = useState(false);
  const setActive = useSetUserActive();
  const deactivate = row.isActive;
  const verb = deactivate ? 'Deactivate' : 'Reactivate';
  const confirm = () =>
    setActive.mutate(
      { id: row.id, isActive: !deactivate },
      {
        onSuccess: () => {
          setOpen(false);
          toast({ title: deactivate ? 'User deactivated' : 'User reactivated', description: name, variant: 'success' });
        },
        onError: (error) => {
          setOpen(false);
          reportMutationError(error, `Could not ${verb.toLowerCase()} ${name}`, { withReason: true });
        },
      },
    );
  if (row.status === 'invited') return null;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button size="sm" variant={deactivate ? 'destructive' : 'outline'} onClick={() => setOpen(true)}>
        {verb}
      </Button>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>
            {verb} {name}?
          </DialogTitle>
          <DialogDescription>
            {deactivate ? `${row.email} will be signed out everywhere and cannot sign in until reactivated.` : `${row.email} will be able to sign in again.`}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button variant={deactivate ? 'destructive' : 'default'} onClick={confirm} disabled={setActive.isPending}>
            {setActive.isPending && <Spinner className="size-4" />}
            {verb}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** 'Reset password' (or 'New invite link' for someone who never set one): a fresh one-time link. */
function LinkButton({ row, name }: { row: TAdminUser; name: string }) {
  const [link, setLink] = useState<TPasswordLink | null>(null);
  const makeLink = usePasswordLink();
  const label = row.status === 'invited' ? 'New invite link' : 'Reset password';
  const run = () =>
    makeLink.mutate(row.id, {
      onSuccess: (data) => {
        setLink(data);
        toast({ title: data.purpose === 'invite' ? 'Invite link created' : 'Reset link created', description: name, variant: 'success' });
      },
      onError: (error) => reportMutationError(error, `Could not create a link for ${name}`, { withReason: true }),
    });
  return (
    <>
      <Button size="sm" variant="outline" onClick={run} disabled={makeLink.isPending}>
        {makeLink.isPending && <Spinner className="size-4" />}
        {label}
      </Button>
      <Dialog open={link !== null} onOpenChange={(open) => !open && setLink(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{label}</DialogTitle>
            <DialogDescription>
              For {name} ({row.email}). Any earlier link for this account no longer works.
            </DialogDescription>
          </DialogHeader>
          {link && <LinkPanel link={link} />}
          <DialogFooter>
            <Button onClick={() => setLink(null)}>Done</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
