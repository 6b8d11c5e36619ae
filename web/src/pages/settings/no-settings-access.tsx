import { NoAccess } from '../../components/no-access.tsx';
import { PageHeader } from '../../components/layout/page-header.tsx';

/** /settings for a role that may not change the clinic's settings (all but the admin): said plainly, no API call. */
export function NoSettingsAccess() {
  return (
    <NoAccess header={<PageHeader title="Settings" />} testId="settings-no-access" title="You have no access to the clinic's settings">
      Only the clinic's administrators change its settings. Ask one if something needs changing.
    </NoAccess>
  );
}
