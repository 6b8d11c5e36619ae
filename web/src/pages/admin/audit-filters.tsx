import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { AUDIT_OUTCOMES } from '#domain/audit';
import { useAuditActions } from '../../api/audit/audit-actions.ts';
import { useAuditActors } from '../../api/audit/audit-actors.ts';
import type { TAuditFilterValues } from '../../api/audit/audit-events.ts';
import { patientQueryOptions } from '../../api/patients/patient.ts';
import { PatientPicker, type TChosenPatient } from '../../components/patient-picker.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { FilterSelect, type TFilterChoice } from '../../components/ui/select.tsx';
import { fullName } from '../../lib/user-display.ts';

export const OUTCOME_LABELS: Record<(typeof AUDIT_OUTCOMES)[number], string> = {
  allowed: 'Allowed',
  unauthenticated: 'Not signed in',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  denied: 'Denied',
};

const OUTCOME_CHOICES = AUDIT_OUTCOMES.map((o) => ({ value: o, label: OUTCOME_LABELS[o] }));

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
  // A filter from the address that the lists do not hold (a user since removed, an action no
  // longer written) stays chosen, shown as well as it can be.
  const actorChoices: TFilterChoice[] = (actors.data ?? []).map((u) => ({ value: u.id, label: `${fullName(u)} (${u.role})` }));
  if (filters.actorId && !actorChoices.some((c) => c.value === filters.actorId)) {
    actorChoices.unshift({ value: filters.actorId, label: actors.isPending ? 'Loading…' : `User #${filters.actorId.slice(-4)}` });
  }
  const actionChoices: TFilterChoice[] = (actions.data ?? []).map((action) => ({ value: action, label: action }));
  if (filters.action && !actions.data?.includes(filters.action)) actionChoices.unshift({ value: filters.action, label: filters.action });

  return (
    <form
      role="search"
      aria-label="Filter the audit trail"
      className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3"
      onSubmit={(e) => e.preventDefault()}
    >
      <FilterSelect
        id="audit-actor"
        label="Who"
        allLabel="Anyone"
        value={filters.actorId ?? ''}
        choices={actorChoices}
        onChange={(v) => set('actorId', v)}
        busy={actors.isPending}
      >
        {actors.isError && <p className="text-sm text-red-700">Could not load the users.</p>}
      </FilterSelect>

      <div className="space-y-1.5 sm:col-span-1 lg:col-span-2">
        <Label htmlFor="audit-patient">Patient</Label>
        <PatientPicker
          control={{ id: 'audit-patient', 'aria-invalid': undefined, 'aria-describedby': undefined }}
          value={chosenPatient}
          onChange={(patient) => set('patientId', patient?.id)}
          allergyBanner={false}
        />
      </div>

      <FilterSelect
        id="audit-action"
        label="Action"
        allLabel="Any action"
        value={filters.action ?? ''}
        choices={actionChoices}
        onChange={(v) => set('action', v)}
      />
      <FilterSelect
        id="audit-outcome"
        label="Outcome"
        allLabel="Any outcome"
        value={filters.outcome ?? ''}
        choices={OUTCOME_CHOICES}
        onChange={(v) => set('outcome', v)}
      />

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
