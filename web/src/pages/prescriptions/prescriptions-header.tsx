import type { ReactNode } from 'react';
import { PageHeader } from '../../components/layout/page-header.tsx';

/** The title block of /prescriptions, the same whether the user may read prescriptions or not. */
export function PrescriptionsHeader({ actions }: { actions?: ReactNode }) {
  return <PageHeader title="Prescriptions" subtitle="Write, check, sign and print prescriptions" actions={actions} />;
}
