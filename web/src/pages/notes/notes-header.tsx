import type { ReactNode } from 'react';
import { PageHeader } from '../../components/layout/page-header.tsx';

/** The title block of /notes, the same whether the user may read notes or not. */
export function NotesHeader({ actions }: { actions?: ReactNode }) {
  return <PageHeader title="Patient Notes" subtitle="Draft, review and finalize clinical notes" actions={actions} />;
}
