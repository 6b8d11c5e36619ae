import { can } from '#domain/permissions';
import type { TRole } from '#domain/roles';
import { useClinic } from '../../api/settings/clinic.ts';

/**
 * Whether a person may be put in a patient's room, as the server decides it (chat's minimum
 * necessary rule, docs/decisions/chat.md): staff who read patient records join; others only
 * where the clinic allows it in Settings, and then the chooser is told what they will see.
 */
export type TRoomAccess = 'member' | 'barred' | 'warned';

export function useRoomAccess(): (role: TRole) => TRoomAccess {
  const allowed = useClinic().data?.nonClinicalInPatientRooms ?? false;
  return (role) => (can({ role }, 'patients.read') ? 'member' : allowed ? 'warned' : 'barred');
}

/** The line under a person who is not a plain member: why she cannot join, or what she will see. */
export function RoomAccessNote({ access, id }: { access: TRoomAccess; id: string }) {
  if (access === 'member') return null;
  return access === 'barred' ? (
    <span id={id} className="block text-xs text-slate-600">Cannot join: no access to patient records</span>
  ) : (
    <span id={id} className="block text-xs text-amber-800">Will see this patient's name, messages and files</span>
  );
}
