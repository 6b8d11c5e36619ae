import { CalendarDays, ClipboardList, FileDown, FlaskConical, History, Lock, Mail, Pencil, Phone, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { TPatient } from '#domain/patients';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/utils.ts';
import { formatDateOfBirth, fullName } from '../../lib/patient-format.ts';
import { adminHref } from '../../lib/admin-tabs.ts';

/**
 * Spec section 2: name, email, 'Active', phone, date of birth, insurance, each with its fallback
 * text. `showAccessLog` (audit.read): a link to the audit trail filtered to this patient;
 * `showChart` (chart.read): a link to her clinical chart; `showLabOrders` (labs.read): a link to her lab orders; `onExport`: her record as files.
 */
export function PatientCard({
  patient,
  onEdit,
  showAccessLog,
  showChart,
  showLabOrders,
  onRestrict,
  onExport,
}: {
  patient: TPatient;
  onEdit?: (patient: TPatient) => void;
  showAccessLog?: boolean;
  showChart?: boolean;
  showLabOrders?: boolean;
  /** An admin's way to restrict the record and name its care team (issue 33). */
  onRestrict?: (patient: TPatient) => void;
  /** 'Export record': her whole record as a PDF summary and a FHIR Bundle (issue 35). */
  onExport?: (patient: TPatient) => void;
}) {
  const name = fullName(patient);
  return (
    <Card data-testid="patient-card" data-patient-id={patient.id} className="flex h-full flex-col p-5">
      <div className="flex items-start justify-between gap-3">
        <h2 className="min-w-0 truncate text-base font-semibold text-slate-900" title={name}>
          {name}
        </h2>
        <div className="flex shrink-0 gap-1">
          {patient.restricted && (
            <Badge className="border-transparent bg-red-100 text-red-800" data-testid="restricted-badge">
              Restricted
            </Badge>
          )}
          {patient.isActive && <Badge className="border-transparent bg-green-100 text-green-800">Active</Badge>}
        </div>
      </div>
      <p className="mt-0.5 flex min-w-0 items-center gap-1.5 text-sm text-slate-600" data-field="email">
        <Mail className="size-3.5 shrink-0" aria-hidden="true" />
        <span className={cn('truncate', !patient.email && 'italic text-slate-500')} title={patient.email ?? undefined}>
          {patient.email ?? 'No email'}
        </span>
      </p>

      <dl className="mt-4 space-y-2 text-sm">
        <Detail label="Phone" field="phone" icon={<Phone aria-hidden="true" />} missing={!patient.phone}>
          {patient.phone ?? 'No phone'}
        </Detail>
        <Detail label="Date of birth" field="dateOfBirth" icon={<CalendarDays aria-hidden="true" />} missing={!patient.dateOfBirth}>
          {patient.dateOfBirth ? formatDateOfBirth(patient.dateOfBirth) : 'No DOB'}
        </Detail>
        <Detail label="Insurance" field="insuranceProvider" icon={<ShieldCheck aria-hidden="true" />} missing={!patient.insuranceProvider}>
          {patient.insuranceProvider ?? 'No insurance'}
        </Detail>
      </dl>

      <div className="mt-auto flex flex-wrap gap-2 pt-4">
        {onEdit && (
          <Button variant="outline" size="sm" className="flex-1" onClick={() => onEdit(patient)}>
            <Pencil aria-hidden="true" />
            Edit<span className="sr-only"> {name}</span>
          </Button>
        )}
        <Button asChild size="sm" className="flex-1">
          <Link href={`/appointments?patientId=${encodeURIComponent(patient.id)}`}>
            View<span className="sr-only"> appointments of {name}</span>
          </Link>
        </Button>
        {showChart && (
          <Button asChild variant="ghost" size="sm" className="shrink-0 px-2">
            <Link href={`/chart?patientId=${encodeURIComponent(patient.id)}`}>
              <ClipboardList aria-hidden="true" />
              Chart<span className="sr-only"> of {name}</span>
            </Link>
          </Button>
        )}
        {showLabOrders && (
          <Button asChild variant="ghost" size="sm" className="shrink-0 px-2">
            <Link href={`/lab-orders?patientId=${encodeURIComponent(patient.id)}`}>
              <FlaskConical aria-hidden="true" />
              Lab orders<span className="sr-only"> of {name}</span>
            </Link>
          </Button>
        )}
        {onRestrict && (
          <Button variant="ghost" size="sm" className="shrink-0 px-2" onClick={() => onRestrict(patient)}>
            <Lock aria-hidden="true" />
            {patient.restricted ? 'Restricted' : 'Restrict'}
            <span className="sr-only"> the record of {name}</span>
          </Button>
        )}
        {onExport && (
          <Button variant="ghost" size="sm" className="shrink-0 px-2" onClick={() => onExport(patient)}>
            <FileDown aria-hidden="true" />
            Export record<span className="sr-only"> of {name}</span>
          </Button>
        )}
        {showAccessLog && (
          <Button asChild variant="ghost" size="sm" className="shrink-0 px-2">
            {/* The visible words start the accessible name, so a voice command of "Access log" finds it. */}
            <Link href={adminHref('audit', { patientId: patient.id })}>
              <History aria-hidden="true" />
              Access log<span className="sr-only"> of {name}</span>
            </Link>
          </Button>
        )}
      </div>
    </Card>
  );
}

function Detail({ label, field, icon, missing, children }: { label: string; field: string; icon: ReactNode; missing: boolean; children: ReactNode }) {
  return (
    <div className="flex items-center gap-2" data-field={field}>
      <dt className="text-slate-500 [&_svg]:size-4">
        {icon}
        <span className="sr-only">{label}</span>
      </dt>
      <dd className={cn('min-w-0 truncate', missing ? 'text-slate-500 italic' : 'text-slate-800')}>{children}</dd>
    </div>
  );
}

/** Stands in for a card while the list loads (spec: six of them). */
export function PatientCardSkeleton() {
  return (
    <Card data-testid="patient-card-skeleton" aria-hidden="true" className="p-5">
      <div className="flex items-start justify-between gap-3">
        <div className="flex-1 space-y-2">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-4 w-1/2" />
        </div>
        <Skeleton className="h-5 w-14 rounded-full" />
      </div>
      <div className="mt-4 space-y-2">
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-4 w-2/5" />
        <Skeleton className="h-4 w-3/5" />
      </div>
      <div className="mt-4 flex gap-2">
        <Skeleton className="h-9 flex-1" />
        <Skeleton className="h-9 flex-1" />
      </div>
    </Card>
  );
}
