import { ScreenPlaceholder } from '../../components/layout/screen-placeholder.tsx';

export function ScheduleAppointmentPage() {
  return <ScreenPlaceholder title="Schedule New Appointment" subtitle="Book a visit and assign staff" />;
}
