import type { ReactNode } from 'react';
import { PageHeader } from '../../components/layout/page-header.tsx';

/** The title block of /appointments, the same whether the user may read appointments or not. */
export function AppointmentsHeader({ subtitle, actions }: { subtitle?: ReactNode; actions?: ReactNode }) {
  return <PageHeader title="Appointments" subtitle={subtitle ?? "Today's visits, the monthly calendar and what is coming up"} actions={actions} />;
}
