import { ScreenPlaceholder } from '../../components/layout/screen-placeholder.tsx';

export function PatientsPage() {
  return <ScreenPlaceholder title="Patients" subtitle="Manage patient records and information" />;
}
