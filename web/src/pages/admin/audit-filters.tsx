import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { AUDIT_OUTCOMES } from '#domain/audit';
import { useAuditActions } from '../../api/audit/audit-actions.ts';
import { useAuditActors } from '../../api/audit/audit-actors.ts';
import type { TAuditFilterValues } from '../../api/audit/audit-events.ts';
import { patientQueryOptions } from '../../api/patients/patient.ts';
import { SELECT_CLASS } from '../../components/appointments/staff-select.tsx';
import { PatientPicker, type TChosenPatient } from '../../components/patient-picker.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { fullName } from '../../lib/user-display.ts';

export const OUTCOME_LABELS: Record<(typeof AUDIT_OUTCOMES)[number], string> = {
  allowed: 'Allowed',
  unauthenticated: 'Not signed in',
  forbidden: 'Forbidden',
  not_found: 'Not found',
};

/** 'Patient #abcd': how the trail names a patient whose name is not at hand (spec section 6's fallback). */
export const patientTag = (id: string) => `Patient #${id.slice(-4)}`;

/**
 * The filtered patient, by name where the patient API gives it. A trail may name ids that were
 * never patients (refused probes): those stay 'Patient #abcd'.
 */
export function useFilteredPatient(patientId: string | undefined): TChosenPatient | null {
  const { data, isPending } = useQuery({ ...patientQueryOptions(patientId ?? ''), enabled: !!patientId });
  if (!patientId) return null;
  // Who, and born when: enough to tell patients apart, and no clinical text (allergies) on the trail's screen.
  if (data && data.id === patientId) return { id: data.id, firstName: data.firstName, lastName: data.lastName, dateOfBirth: data.dateOfBirth };
  return { id: patientId, firstName: isPending ? 'Loading…' : 'Unknown', lastName: isPending ? '' : 'patient' };
}

/** The viewer's filter bar: every change goes to the address (?tab=audit&...), which the list reads. */
export function AuditFilters({ filters, onChange }: { filters: TAuditFilterValues; onChange: (next: TAuditFilterValues) => void }) {
  const actors = useAuditActors();
  const actions = useAuditActions();
  const chosenPatient = useFilteredPatient(filters.patientId);
  const set = (name: keyof TAuditFilterValues, value: string | undefined) => onChange({ ...filters, [name]: value || undefined });
  const any = Object.values(filters).some(Boolean);
  const actionChoices = actions.data ?? [];

  return (
    <form role="search" aria-label="Filter the audit trail" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3" onSubmit={(e) => e.preventDefault()}>
      <div className="space-y-1.5">
        <Label htmlFor="audit-actor">Who</Label>
        <select id="audit-actor" className={SELECT_CLASS} value={filters.actorId ?? ''} onChange={(e) => set('actorId', e.target.value)} aria-busy={actors.isPending || undefined}>
          <option value="">Anyone</option>
          {filters.actorId && !actors.data?.some((u) => u.id === filters.actorId) && (
            <option value={filters.actorId}>{actors.isPending ? 'Loading…' : `User #${filters.actorId.slice(-4)}`}</option>
          )}
          {(actors.data ?? []).map((u) => (
            <option key={u.id} value={u.id}>{`${fullName(u)} (${u.role})`}</option>
          ))}
        </select>
        {actors.isError && <p className="text-sm text-red-700">Could not load the users.</p>}
      </div>

      <div className="space-y-1.5 sm:col-span-1 lg:col-span-2">
        <Label htmlFor="audit-patient">Patient</Label>
        <PatientPicker
          control={{ id: 'audit-patient', 'aria-invalid': undefined, 'aria-describedby': undefined }}
          value={chosenPatient}
          onChange={(patient) => set('patientId', patient?.id)}
        />
      </div>

      <div className="space-y-1.5">
        <Label htmlFor="audit-action">Action</Label>
        <select id="audit-action" className={SELECT_CLASS} value={filters.action ?? ''} onChange={(e) => set('action', e.target.value)}>
          <option value="">Any action</option>
          {filters.action && !actionChoices.includes(filters.action) && <option value={filters.action}>{filters.action}</option>}
          {actionChoices.map((action) => <option key={action} value={action}>{action}</option>)}
        </select>
      </div>

      <div className="space-y-1.5">
        <Label htmlFor="audit-outcome">Outcome</Label>
        <select id="audit-outcome" className={SELECT_CLASS} value={filters.outcome ?? ''} onChange={(e) => set('outcome', e.target.value)}>
          <option value="">Any outcome</option>
          {AUDIT_OUTCOMES.map((o) => <option key={o} value={o}>{OUTCOME_LABELS[o]}</option>)}
        </select>
      </div>

      <div className="grid grid-cols-2 gap-3">
        <div className="space-y-1.5">
          <Label htmlFor="audit-from">From</Label>
          <Input id="audit-from" type="date" value={filters.from ?? ''} max={filters.to} onChange={(e) => set('from', e.target.value)} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="audit-to">To</Label>
          <Input id="audit-to" type="date" value={filters.to ?? ''} min={filters.from} onChange={(e) => set('to', e.target.value)} />
        </div>
      </div>

      {any && (
        <div className="flex items-end sm:col-span-2 lg:col-span-3">
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange({})}>
            <X aria-hidden="true" />
            Clear filters
          </Button>
        </div>
      )}
    </form>
  );
}
