import { UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { DEFAULT_ROLE, ROLE_LABELS, ROLES, type TRole } from '#domain/roles';
import { ZInvite, type TInviteResult } from '#domain/users';
import { useInviteUser } from '../../api/users/invite-user.ts';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { LinkPanel } from './users-link-panel.tsx';

type TFields = { email: string; firstName: string; lastName: string; role: TRole };
const EMPTY: TFields = { email: '', firstName: '', lastName: '', role: DEFAULT_ROLE };

/** 'Invite User': creates the account (inactive until they set a password) and shows its one-time link. */
export function InviteUserButton() {
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState<TFields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof TFields, string>>>({});
  const [result, setResult] = useState<TInviteResult | null>(null);
  const invite = useInviteUser();

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setFields(EMPTY);
      setErrors({});
      setResult(null);
      invite.reset();
    }
  };
  const set = (name: keyof TFields, value: string) => setFields((f) => ({ ...f, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZInvite.safeParse(fields);
    if (!parsed.success) {
      const next: Partial<Record<keyof TFields, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof TFields;
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    invite.mutate(parsed.data, {
      onSuccess: (data) => {
        setResult(data);
        toast({ title: 'User invited', description: `${data.user.email} can set a password with the link below.`, variant: 'success' });
      },
      onError: (error) => {
        const described = reportMutationError(error, 'Could not invite the user', { withReason: true });
        if (!described) return;
        const next: Partial<Record<keyof TFields, string>> = {};
        for (const fe of described.fieldErrors) if (fe.path in EMPTY) next[fe.path as keyof TFields] = fe.message;
        if (described.code === 'user.emailTaken') next.email = described.message;
        setErrors(next);
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <Button onClick={() => setOpen(true)} data-testid="invite-user">
        <UserPlus aria-hidden="true" />
        Invite User
      </Button>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Invite User</DialogTitle>
          <DialogDescription>
            {result ? `${result.user.email} is invited. Their account stays inactive until they set a password.` : 'The account stays inactive until they set a password with the link you hand them.'}
          </DialogDescription>
        </DialogHeader>
        {result ? (
          <>
            <LinkPanel link={result.link} />
            <DialogFooter>
              <Button onClick={() => onOpenChange(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={submit} noValidate className="space-y-4">
            <FormField id="invite-email" label="Email" required error={errors.email}>
              {(control) => <Input {...control} type="email" autoComplete="off" value={fields.email} onChange={(e) => set('email', e.target.value)} />}
            </FormField>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField id="invite-first-name" label="First name" required error={errors.firstName}>
                {(control) => <Input {...control} autoComplete="off" value={fields.firstName} onChange={(e) => set('firstName', e.target.value)} />}
              </FormField>
              <FormField id="invite-last-name" label="Last name" required error={errors.lastName}>
                {(control) => <Input {...control} autoComplete="off" value={fields.lastName} onChange={(e) => set('lastName', e.target.value)} />}
              </FormField>
            </div>
            <FormField id="invite-role" label="Role" required error={errors.role}>
              {(control) => (
                <select {...control} className={SELECT_CLASS} value={fields.role} onChange={(e) => set('role', e.target.value)}>
                  {ROLES.map((role) => (
                    <option key={role} value={role}>{ROLE_LABELS[role]}</option>
                  ))}
                </select>
              )}
            </FormField>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>Cancel</Button>
              <Button type="submit" disabled={invite.isPending}>
                {invite.isPending && <Spinner className="size-4" />}
                Send invite
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
