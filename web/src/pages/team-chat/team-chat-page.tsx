import { ScreenPlaceholder } from '../../components/layout/screen-placeholder.tsx';

export function TeamChatPage() {
  return <ScreenPlaceholder title="Team Chat" subtitle="Secure patient-specific communication channels for healthcare teams" />;
}
