import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { DEFAULT_ROLE, ROLE_LABELS, ROLES } from '#domain/roles';
import { ZInvite, type TInvite, type TInviteResult } from '#domain/users';
import type { z } from 'zod';
import { useInviteUser } from '../../api/users/invite-user.ts';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DialogFooter } from '../../components/ui/dialog.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { LinkPanel } from './users-link-panel.tsx';

type TInviteFields = z.input<typeof ZInvite>;
const EMPTY: TInviteFields = { email: '', firstName: '', lastName: '', role: DEFAULT_ROLE };
const FIELDS = ['email', 'firstName', 'lastName', 'role'] as const;

/** 'Invite User': creates the account (inactive until they set a password) and shows its one-time link. */
export function InviteUserButton() {
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<TInviteResult | null>(null);
  // Closing forgets the link and what was typed (the form is only mounted while the dialog is open).
  const close = () => {
    setOpen(false);
    setResult(null);
  };

  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="invite-user">
        <UserPlus aria-hidden="true" />
        Invite User
      </Button>
      <FormDialog
        open={open}
        onClose={close}
        headerClassName=""
        closeOnOutsideClick
        title="Invite User"
        description={
          result
            ? `${result.user.email} is invited. Their account stays inactive until they set a password.`
            : 'The account stays inactive until they set a password with the link you hand them.'
        }
      >
        {result ? (
          <>
            <LinkPanel link={result.link} />
            <DialogFooter>
              <Button onClick={close}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <InviteForm onInvited={setResult} onCancel={close} />
        )}
      </FormDialog>
    </>
  );
}

function InviteForm({ onInvited, onCancel }: { onInvited: (result: TInviteResult) => void; onCancel: () => void }) {
  const invite = useInviteUser();
  const form = useAppForm<TInviteFields, TInvite>({ schema: ZInvite, defaultValues: EMPTY, fields: FIELDS });
  const {
    register,
    formState: { errors },
  } = form;

  const onSubmit = form.onSubmit((values) =>
    invite.mutate(values, {
      onSuccess: (data) => {
        toast({ title: 'User invited', description: `${data.user.email} can set a password with the link below.`, variant: 'success' });
        onInvited(data);
      },
      onError: (error) => {
        const described = form.failed(error, 'Could not invite the user', { withReason: true });
        if (described?.code === 'user.emailTaken') form.setError('email', { type: 'server', message: described.message });
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormField id="invite-email" label="Email" required error={errors.email?.message}>
        {(control) => <Input {...control} type="email" autoComplete="off" {...register('email')} />}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="invite-first-name" label="First name" required error={errors.firstName?.message}>
          {(control) => <Input {...control} autoComplete="off" {...register('firstName')} />}
        </FormField>
        <FormField id="invite-last-name" label="Last name" required error={errors.lastName?.message}>
          {(control) => <Input {...control} autoComplete="off" {...register('lastName')} />}
        </FormField>
      </div>
      <FormField id="invite-role" label="Role" required error={errors.role?.message}>
        {(control) => (
          <select {...control} className={SELECT_CLASS} {...register('role')}>
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={invite.isPending}>
          {invite.isPending && <Spinner className="size-4" />}
          Send invite
        </Button>
      </DialogFooter>
    </form>
  );
}
