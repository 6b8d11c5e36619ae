import { CalendarX2 } from 'lucide-react';
import type { TAppointmentConflict, TAppointmentConflictKind } from '#domain/appointments';
import { CONFLICT_KIND_LABELS } from './appointment-format.ts';
import { clinicDayOf, formatDate, formatTimeRange } from '#domain/clinic-time';

function clashText(kind: TAppointmentConflictKind, roomNumber: string | null | undefined): string {
  switch (kind) {
    case 'patient':
      return 'The patient already has an appointment';
    case 'room':
      return roomNumber ? `Room ${roomNumber} is already booked` : 'The room is already booked';
    case 'nurse':
      return 'The nurse is already assigned elsewhere';
    case 'scribe':
      return 'The scribe is already assigned elsewhere';
  }
}

/**
 * The clashes of a booking or a reschedule, by kind and time (the live check, or a 409's list).
 * No patient names: the kind and the times say what clashes.
 */
export function ConflictList({
  conflicts,
  timeZone,
  roomNumber,
  refused = false,
}: {
  conflicts: readonly TAppointmentConflict[];
  timeZone: string;
  roomNumber?: string | null | undefined;
  /** The server refused the save over these (a 409), rather than a check before saving. */
  refused?: boolean;
}) {
  if (conflicts.length === 0) return null;
  const day = clinicDayOf(conflicts[0]!.start, timeZone);
  const sameDay = conflicts.every((c) => clinicDayOf(c.start, timeZone) === day);
  return (
    <div data-testid="appointment-conflicts" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
      <p className="flex items-center gap-2 font-semibold text-amber-950">
        <CalendarX2 className="size-4 shrink-0" aria-hidden="true" />
        {refused ? 'Not saved: this time clashes' : conflicts.length === 1 ? '1 conflict' : `${conflicts.length} conflicts`}
        {sameDay && <span className="font-normal text-amber-900">on {formatDate(conflicts[0]!.start, timeZone)}</span>}
      </p>
      <ul className="mt-2 space-y-1">
        {conflicts.map((conflict) => (
          <li key={`${conflict.kind}:${conflict.appointmentId}`} data-testid="appointment-conflict" data-kind={conflict.kind} className="text-amber-950">
            <span className="font-medium">{CONFLICT_KIND_LABELS[conflict.kind]}:</span> {clashText(conflict.kind, roomNumber)},{' '}
            {!sameDay && `${formatDate(conflict.start, timeZone)}, `}
            {formatTimeRange(conflict.start, conflict.end, timeZone)}
          </li>
        ))}
      </ul>
    </div>
  );
}
