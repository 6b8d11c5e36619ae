import { patientRoomAccess, type TPatientRoomAccess } from '#domain/chat';
import type { TRole } from '#domain/roles';
import type { TStaffMember } from '#domain/staff';
import { useClinic } from '../../api/settings/clinic.ts';
import { cn } from '../../lib/utils.ts';
import { initialsOf, personName } from './chat-format.ts';
import { ChatRoleBadge, Initials } from './chat-role-badge.tsx';

/** Whether a person may be put in a patient's room, by the rule the server applies (domain/chat.ts). */
export function useRoomAccess(): (role: TRole) => TPatientRoomAccess {
  const nonClinicalInPatientRooms = useClinic().data?.nonClinicalInPatientRooms ?? false;
  return (role) => patientRoomAccess(role, { nonClinicalInPatientRooms });
}

/** The line under a person who is not a plain member: why she cannot join, or what she will see. */
function RoomAccessNote({ access, id }: { access: TPatientRoomAccess; id: string }) {
  if (access === 'member') return null;
  return access === 'barred' ? (
    <span id={id} className="block text-xs text-slate-600">
      Cannot join: no access to patient records
    </span>
  ) : (
    <span id={id} className="block text-xs text-amber-800">
      Will see this patient's name, messages and files
    </span>
  );
}

/**
 * One person to choose for a room (the New Room checklist, Add Member's radio list): initials,
 * name, role, and under the name why she cannot join or what she will see. A barred person is
 * listed but cannot be picked.
 */
export function StaffChoice({
  person,
  access,
  type,
  name,
  checked,
  disabled = false,
  onChange,
}: {
  person: TStaffMember;
  access: TPatientRoomAccess;
  type: 'checkbox' | 'radio';
  name?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  const noteId = `room-access-${type}-${person.id}`;
  return (
    <label
      className={cn(
        'flex items-center gap-3 rounded px-2 py-1.5 text-sm',
        access === 'barred' ? 'cursor-not-allowed opacity-70' : 'cursor-pointer hover:bg-slate-50',
        checked && 'bg-blue-50',
      )}
    >
      <input
        type={type}
        name={name}
        value={person.id}
        checked={checked}
        disabled={disabled || access === 'barred'}
        aria-describedby={access === 'member' ? undefined : noteId}
        onChange={(event) => onChange(event.target.checked)}
        className="size-4 accent-blue-700"
      />
      <Initials text={initialsOf(person)} />
      <span className="min-w-0 flex-1">
        <span className="block truncate">{personName(person)}</span>
        <RoomAccessNote access={access} id={noteId} />
      </span>
      <ChatRoleBadge role={person.role} />
    </label>
  );
}
