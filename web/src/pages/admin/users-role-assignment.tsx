import { z } from 'zod';
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
import { toast, withDetail } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

/** Only that both are there: the server judges the email (its refusal comes as the usual toast). */
const ZAssignment = z.object({ email: z.string().trim().min(1), role: z.string().pipe(ZRole) });
type TAssignmentFields = z.input<typeof ZAssignment>;

/** The spec's Role Assignment card: an email, a role, 'Assign Role'. */
export function RoleAssignmentCard() {
  const assign = useAssignRole();
  // The spec's one toast for whatever is missing, not a message per field.
  const form = useAppForm<TAssignmentFields, z.output<typeof ZAssignment>>({
    schema: ZAssignment,
    defaultValues: { email: '', role: '' },
    fields: [],
    shouldFocusError: false,
  });
  const { register, reset } = form;

  const submit = form.onSubmit(
    (assignment) =>
      assign.mutate(assignment, {
        onSuccess: () => {
          toast({
            title: 'Success',
            description: withDetail('User role updated successfully', `${assignment.email} is now ${ROLE_LABELS[assignment.role]}.`),
            variant: 'success',
          });
          reset();
        },
        onError: (error) => reportMutationError(error, 'Failed to update user role', { withReason: true }),
      }),
    () => toast({ title: 'Validation Error', description: 'Please enter both email and role', variant: 'destructive' }),
  );

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
            <Input id="assign-email" type="email" autoComplete="off" placeholder="name@clinic.example" {...register('email')} />
          </div>
          <div className="space-y-2">
            <Label htmlFor="assign-role">Role</Label>
            <select id="assign-role" className={SELECT_CLASS} {...register('role')}>
              <option value="">Select a role</option>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" disabled={assign.isPending}>
            {assign.isPending && <Spinner className="size-4" />}
            Assign Role
          </Button>
        </form>
        <RoleDescriptions />
      </CardContent>
    </Card>
  );
}

/** What each role does (spec section 2: role descriptions are shown), with or without the form. */
export function RoleDescriptions() {
  return (
    <ul className="grid gap-2 sm:grid-cols-2" aria-label="Role descriptions">
      {ROLES.map((r) => (
        <li key={r} className="flex items-start gap-2 text-sm text-slate-700">
          <RoleBadge role={r} className="shrink-0" />
          <span>{ROLE_DESCRIPTIONS[r]}</span>
        </li>
      ))}
    </ul>
  );
}
