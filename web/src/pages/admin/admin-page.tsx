import { ScreenPlaceholder } from '../../components/layout/screen-placeholder.tsx';

/** /admin. Who may open it is decided once, by the screen registry's gate. */
export function AdminPage() {
  return <ScreenPlaceholder title="Admin Panel" subtitle="User management, analytics, notifications and settings" />;
}
