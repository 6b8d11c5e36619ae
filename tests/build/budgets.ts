/**
 * The weight budget of the web app, in KB (1000 bytes) of gzip at level 9, the .gz the server
 * sends (brotli, which browsers prefer, is smaller still). Checked by weight-budget.test.ts
 * against every build. Raise a number only with a reason in the commit message.
 */

/**
 * What a visitor's first page loads before it can show anything: index.html's scripts. 91 since
 * issue 56 (90.07 measured): the sign-in forms' schemas left the signed-in frame's shared chunk,
 * so the list of chunks the sign-in page preloads, which the first page carries, names three
 * more. Its own code is unchanged.
 */
export const LANDING_BUDGET_KB = 91;

/**
 * The signed-in app's frame (layout, sidebar, live socket, toasts), before any screen. 201 since
 * the chart (issue 51): each screen's entry in screens.ts carries the list of chunks its code
 * preloads, and the chart's took the frame 0.5 KB over 200. 202 since Prescriptions (issue 52):
 * its screen's entry, its live message and its notice's link took it 0.1 KB over 201. 190 since
 * issue 56 (187.4 measured): the schemas only the server uses are left out of the build, the
 * bell's and the profile menu's popover code (Radix's, with its positioning library) loads
 * after the screen (components/ui/deferred-popover.tsx), and the sign-in and user forms'
 * schemas are no longer part of it (domain/sign-in-paths.ts).
 */
export const SHELL_BUDGET_KB = 188;

/**
 * Each screen's own code, beyond the shell: what opening it adds. Keyed by the module that
 * screens.ts loads. Heavy parts a screen uses only sometimes (the calendar, charts, the upload
 * widget) load on use and are budgeted by what they add on top of their screen. The dashboard
 * is bundled with the shell (web/build/signed-in-chunks.ts), so it adds nothing and the shell's
 * budget holds it. Issue 56 lowered the roomiest to what each measured then plus about 3 KB
 * (patients 12.6, appointments 20.3, scheduling 28.4, notes 18.1, admin 5.6,
 * chart 18.9, prescriptions 17.0).
 */
export const SCREEN_BUDGETS_KB: Record<string, number> = {
  'src/pages/dashboard/dashboard-page.tsx': 5,
  'src/pages/patients/patients-page.tsx': 15,
  'src/pages/patients/no-patient-access.tsx': 5,
  'src/pages/appointments/appointments-page.tsx': 25,
  'src/pages/appointments/no-appointment-access.tsx': 5,
  'src/pages/schedule-appointment/schedule-appointment-page.tsx': 32,
  'src/pages/schedule-appointment/schedule-access-denied.tsx': 5,
  'src/pages/notes/notes-page.tsx': 22,
  'src/pages/notes/no-notes-access.tsx': 5,
  // 25.3 since issue 56: the popover code its menus use is no longer part of the shell.
  'src/pages/team-chat/team-chat-page.tsx': 28,
  // Measured 13 KB (issue 30): its detail, forms and trend chart load on use.
  'src/pages/lab-orders/lab-orders-page.tsx': 25,
  'src/pages/lab-orders/no-lab-access.tsx': 5,
  'src/pages/supply-orders/supply-orders-page.tsx': 25,
  'src/pages/supply-orders/no-supply-access.tsx': 5,
  'src/pages/admin/admin-page.tsx': 10,
  'src/pages/admin/admin-access-denied.tsx': 5,
  // The user's own second factors (issue 33): measured 29 KB, of which the form stack (react-hook-form
  // and the schemas, 17 KB) is shared with every other form screen. 38 since issue 56 (35.7): the
  // second factors' schemas came with the shell before, and now come with this page.
  'src/pages/account/security-page.tsx': 38,
  // Measured 8 KB (issue 34): its chart (visx) loads on use, with the first report that has bars to draw.
  'src/pages/reports/reports-page.tsx': 10,
  'src/pages/reports/no-reports-access.tsx': 5,
  // The clinical chart (issue 51): its four lists; the forms and the trend chart load on use.
  'src/pages/chart/chart-page.tsx': 22,
  'src/pages/chart/no-chart-access.tsx': 5,
  // Prescriptions (issue 52): the lists; the form (with the checks), the detail and signing load on use.
  'src/pages/prescriptions/prescriptions-page.tsx': 20,
  'src/pages/prescriptions/no-prescription-access.tsx': 5,
  'src/pages/settings/settings-redirect.tsx': 5,
  'src/pages/settings/no-settings-access.tsx': 5,
};

/** Any other lazily loaded part (a calendar, a chart, an upload widget), beyond what loaded it. */
export const LAZY_PART_BUDGET_KB = 60;

/**
 * Heavy parts a screen uses only sometimes (issue 56), by the modules that make them up (as the
 * build's source maps name them): none may be in the signed-in shell, nor in any screen's own
 * code but the screens named as its home, whose purpose it is. PDFs and CSV files are written by
 * the server (the browser only follows a link), so their writers must be in no screen at all.
 */
export const LOADED_ON_USE: { part: string; modules: RegExp; home?: string[] }[] = [
  { part: 'the charts (visx and d3)', modules: /\/node_modules\/(@visx|d3-[a-z-]+)\// },
  { part: "the chart's and lab results' trend view", modules: /^src\/components\/trend\// },
  { part: 'the month calendar', modules: /^src\/pages\/appointments\/calendar-month\.tsx$/ },
  { part: 'the upload widget', modules: /^src\/components\/upload\/|\/node_modules\/@uppy\// },
  { part: 'the emergency-access dialog', modules: /^src\/components\/restricted\/emergency-access-dialog\.tsx$/ },
  {
    part: 'the second-factor proof and passkeys',
    modules: /^src\/components\/second-factor\/proof-dialog\.tsx$|\/node_modules\/@simplewebauthn\//,
    home: ['src/pages/account/security-page.tsx'],
  },
  { part: 'a PDF or CSV writer', modules: /\/node_modules\/(pdfkit|unpdf|pdf-lib|jspdf|papaparse|csv-[a-z]+)\// },
];

/** The module whose static imports make up the signed-in shell. */
export const SHELL_MODULE = 'src/signed-in-app.tsx';

/**
 * What a signed-in page loads before its first screen, the dashboard, has content: the shell,
 * the dashboard (bundled with it, web/build/signed-in-chunks.ts) and what decides its early
 * reads. Loaded together, so what counts beyond their weight is how many requests they take:
 * a browser makes six at a time to one server over HTTP/1.1. Issue 29: from 45 to 7.
 */
export const FIRST_SCREEN_MODULES = [SHELL_MODULE, 'src/pages/dashboard/dashboard-page.tsx', 'src/pages/dashboard/first-reads.ts'];
export const FIRST_SCREEN_CHUNKS = 10;
