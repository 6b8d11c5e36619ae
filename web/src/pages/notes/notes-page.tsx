import { ScreenPlaceholder } from '../../components/layout/screen-placeholder.tsx';

export function NotesPage() {
  return <ScreenPlaceholder title="Patient Notes" subtitle="Draft, review and finalize clinical notes" />;
}
