import * as Tabs from '@radix-ui/react-tabs';
import { Suspense, type ComponentType } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { PageHeader } from '../../components/layout/page-header.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';
import { adminHref, adminTabsFor, type TAdminTab } from '../../lib/admin-tabs.ts';
import { preloadable, usePreloaded, type TPreloadable } from '../../lib/preloadable.ts';

type TTabComponent = ComponentType<{ user: TCurrentUser }>;
const lazyTab = <K extends string>(load: () => Promise<Record<K, TTabComponent>>, name: K) => preloadable(async () => (await load())[name]);

// Each tab is its own chunk: the charts' library loads only when Analytics is opened.
const TAB_SCREENS: Record<TAdminTab, TPreloadable<TTabComponent>> = {
  users: lazyTab(() => import('./user-management-tab.tsx'), 'UserManagementTab'),
  analytics: lazyTab(() => import('./analytics-tab.tsx'), 'AnalyticsTab'),
  notifications: lazyTab(() => import('./notifications-tab.tsx'), 'NotificationsTab'),
  'lab-tests': lazyTab(() => import('./lab-tests-tab.tsx'), 'LabTestsTab'),
  'lab-interface': lazyTab(() => import('./lab-interface-tab.tsx'), 'LabInterfaceTab'),
  formulary: lazyTab(() => import('./formulary-tab.tsx'), 'FormularyTab'),
  prescribers: lazyTab(() => import('./prescribers-tab.tsx'), 'PrescribersTab'),
  settings: lazyTab(() => import('./settings-tab.tsx'), 'SettingsTab'),
  audit: lazyTab(() => import('./audit-tab.tsx'), 'AuditTab'),
  'emergency-access': lazyTab(() => import('./emergency-access-tab.tsx'), 'EmergencyAccessTab'),
  'api-clients': lazyTab(() => import('./api-clients-tab.tsx'), 'ApiClientsTab'),
  'patient-groups': lazyTab(() => import('./patient-groups-tab.tsx'), 'PatientGroupsTab'),
};
// The panel opens on its first tab, whoever may open it: that tab's code loads with the page's
// (and so is here when the page was loaded ahead of a click, screens.ts preloadScreens).
TAB_SCREENS.users.load().catch(() => undefined);

const TRIGGER =
  'inline-flex items-center justify-center whitespace-nowrap rounded px-3 py-1.5 text-sm font-medium text-slate-700 transition-colors hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm sm:px-4';

/**
 * /admin (spec section 2): the tabs this user may see, the open one kept in the address (?tab=).
 * Who may open the panel at all is decided once, by the screen registry's gate.
 */
export function AdminPage({ user }: { user: TCurrentUser }) {
  const tabs = adminTabsFor(user);
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const requested = params.get('tab');
  const open = tabs.find((tab) => tab.value === requested) ?? tabs[0];

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Admin Panel" subtitle="Manage users, review clinic activity and configure the clinic" />
      {open && (
        <Tabs.Root value={open.value} onValueChange={(value) => navigate(adminHref(value as TAdminTab), { replace: true })}>
          <Tabs.List aria-label="Admin Panel sections" className="mb-4 flex w-full flex-wrap gap-1 rounded-md bg-slate-100 p-1 sm:inline-flex sm:w-auto">
            {tabs.map((tab) => (
              <Tabs.Trigger key={tab.value} value={tab.value} className={TRIGGER}>
                {tab.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Content key={tab.value} value={tab.value} className="focus-visible:outline-none">
              {tab.value === open.value && <TabScreen code={TAB_SCREENS[tab.value]} user={user} />}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      )}
    </div>
  );
}

/** A tab drawn at once when its code is here (lib/preloadable.ts); what it loads on use suspends here. */
function TabScreen({ code, user }: { code: TPreloadable<TTabComponent>; user: TCurrentUser }) {
  const Screen = usePreloaded(code);
  return <Suspense fallback={<LoadingBlock />}>{Screen ? <Screen user={user} /> : <LoadingBlock />}</Suspense>;
}
