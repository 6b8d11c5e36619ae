import type { TCurrentUser } from '#domain/auth';
import { staffName, useAssignableStaff, type TAssignableRole } from '../../api/staff/staff.ts';
import { cn } from '../../lib/utils.ts';
import type { TFieldControlProps } from '../ui/form-field.tsx';
import { SELECT_CLASS } from '../ui/select.tsx';

const NONE_LABELS: Record<TAssignableRole, string> = { nurse: 'No nurse assigned', scribe: 'No scribe assigned' };

/**
 * A nurse or scribe picker (spec section 5): the active staff of that role, and the none choice
 * ('No nurse assigned' / 'No scribe assigned'), whose value '' is sent as null. A staff member
 * already chosen stays offered while the list loads or if they left it.
 */
export function StaffSelect({
  user,
  role,
  control,
  value,
  onChange,
  onBlur,
  name,
  className,
}: {
  user: TCurrentUser;
  role: TAssignableRole;
  control: TFieldControlProps;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  name?: string;
  className?: string;
}) {
  const { data: staff, isPending, isError } = useAssignableStaff(user, role);
  const listed = staff ?? [];
  const missing = value && !listed.some((member) => member.id === value);
  return (
    <>
      <select
        {...control}
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        className={cn(SELECT_CLASS, className)}
        data-testid={`${role}-select`}
        aria-busy={isPending || undefined}
      >
        <option value="">{NONE_LABELS[role]}</option>
        {missing && <option value={value}>{isPending ? 'Loading…' : `Current ${role}`}</option>}
        {listed.map((member) => (
          <option key={member.id} value={member.id}>
            {staffName(member)}
          </option>
        ))}
      </select>
      {isError && <p className="text-sm text-red-700">Could not load the {role}s. You can still book without one.</p>}
    </>
  );
}
