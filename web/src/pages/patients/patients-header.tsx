import type { ReactNode } from 'react';
import { PageHeader } from '../../components/layout/page-header.tsx';

/** The title block of /patients, the same whether the user may read patients or not. */
export function PatientsHeader({ actions }: { actions?: ReactNode }) {
  return <PageHeader title="Patients" subtitle="Manage patient records and information" actions={actions} />;
}
