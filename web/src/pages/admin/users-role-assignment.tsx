import { useState, type FormEvent } from 'react';
import { ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES, ZRole } from '#domain/roles';
import { useAssignRole } from '../../api/users/assign-role.ts';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { RoleBadge } from '../../components/layout/role-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';

/** The spec's Role Assignment card: an email, a role, 'Assign Role'. */
export function RoleAssignmentCard() {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('');
  const assign = useAssignRole();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsedRole = ZRole.safeParse(role);
    if (!email.trim() || !parsedRole.success) {
      toast({ title: 'Validation Error', description: 'Please enter both email and role', variant: 'destructive' });
      return;
    }
    assign.mutate(
      { email: email.trim(), role: parsedRole.data },
      {
        onSuccess: () => {
          toast({ title: 'Role assigned', description: `${email.trim()} is now ${ROLE_LABELS[parsedRole.data]}.`, variant: 'success' });
          setEmail('');
          setRole('');
        },
        onError: (error) => reportMutationError(error, 'Could not assign the role', { withReason: true }),
      },
    );
  };

  return (
    <Card data-testid="role-assignment">
      <CardHeader>
        <CardTitle>Role Assignment</CardTitle>
        <CardDescription>Give an existing account a new role.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <form onSubmit={submit} noValidate className="grid gap-3 md:grid-cols-[1fr_12rem_auto] md:items-end">
          <div className="space-y-2">
            <Label htmlFor="assign-email">Email</Label>
            <Input id="assign-email" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="name@clinic.example" />
          </div>
          <div className="space-y-2">
            <Label htmlFor="assign-role">Role</Label>
            <select id="assign-role" className={SELECT_CLASS} value={role} onChange={(e) => setRole(e.target.value)}>
              <option value="">Select a role</option>
              {ROLES.map((r) => (
                <option key={r} value={r}>{ROLE_LABELS[r]}</option>
              ))}
            </select>
          </div>
          <Button type="submit" disabled={assign.isPending}>
            {assign.isPending && <Spinner className="size-4" />}
            Assign Role
          </Button>
        </form>
        <ul className="grid gap-2 sm:grid-cols-2" aria-label="Role descriptions">
          {ROLES.map((r) => (
            <li key={r} className="flex items-start gap-2 text-sm text-slate-700">
              <RoleBadge role={r} className="shrink-0" />
              <span>{ROLE_DESCRIPTIONS[r]}</span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
