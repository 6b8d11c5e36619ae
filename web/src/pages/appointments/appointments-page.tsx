import { ScreenPlaceholder } from '../../components/layout/screen-placeholder.tsx';

export function AppointmentsPage() {
  return <ScreenPlaceholder title="Appointments" subtitle="Today's visits, the monthly calendar and every appointment" />;
}
