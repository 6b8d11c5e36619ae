import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TNotificationType } from '#domain/notifications';
import { openDatabase } from '../server/db/database.ts';
import { insertNotification } from '../tests/helpers/factories.ts';
import { api } from './helpers/api.ts';
import { signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastText } from './helpers/page.ts';
import type { TServerDatabase } from './helpers/server.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

// The demo clinic (server/seed/demo-clinic.ts) gives the nurse two unread notifications and the
// admin, scheduler and supplier one each. Each test takes its own account, so the order of the
// tests does not matter.

/** Waits long enough for the backoff to reach a server that took a few seconds to come back. */
const RECONNECT_TIMEOUT_MS = 45_000;

const liveDot = (page: Page, state: 'live' | 'offline') => page.locator(`[data-testid="live-status"][data-state="${state}"]`);
const bellCount = (page: Page) => page.getByTestId('notification-count');
const panel = (page: Page) => page.getByTestId('active-notifications');

/**
 * The browser's console errors from now on, watched once signed in; a CSP refusal of the socket
 * would show here.
 */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** An element's background as 0-255 red, green and blue, whatever CSS colour syntax it uses. */
function rgb(locator: ReturnType<Page['locator']>): Promise<[number, number, number]> {
  return locator.evaluate((element) => {
    const context = document.createElement('canvas').getContext('2d')!;
    context.fillStyle = getComputedStyle(element).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!] as [number, number, number];
  });
}

/** Rows no API creates yet, written while the server is down (e2e/helpers/server.ts restart). */
async function addNotifications(database: TServerDatabase, userId: string, rows: { type: TNotificationType; title: string }[]) {
  const opened = await openDatabase(database);
  try {
    for (const row of rows) {
      await insertNotification(opened.db, userId, { type: row.type, title: row.title, message: `${row.title}: details` });
    }
  } finally {
    await opened.close();
  }
}

describe('live connection dot', () => {
  it('is green on the dashboard once signed in, with a label that says so', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const errors = consoleErrors(page);
    const dot = page.getByTestId('live-status');
    await liveDot(page, 'live').waitFor();
    expect(await dot.getAttribute('aria-label')).toBe('Live updates connected');
    const [r, g, b] = await rgb(dot.locator('span').first());
    expect(g).toBeGreaterThan(r + 60);
    expect(g).toBeGreaterThan(b + 60);
    await page.reload();
    await liveDot(page, 'live').waitFor();
    expect(errors).toEqual([]);
  });

  it('turns grey when the server goes away and green when it is back; what came meanwhile shows without a reload', async () => {
    const { page } = e2e;
    await signInAs(page, 'supplier');
    await liveDot(page, 'live').waitFor();
    await bellCount(page).waitFor();
    expect(await bellCount(page).innerText()).toBe('1');
    const { json: me } = await api<{ id: string }>(page, 'GET', '/api/auth/user');
    // The screens' code the page fetches when idle (a supplier's Supply Orders since issue 31) is
    // in before the server goes: a chunk caught by the shutdown would log a 503 of its own.
    await page.waitForLoadState('networkidle');
    const errors = consoleErrors(page);

    const restarting = e2e.restartServer({
      whileStopped: (database) => addNotifications(database, me.id, [{ type: 'supply_ready', title: 'Order SO-2002 ready' }]),
    });
    await liveDot(page, 'offline').waitFor({ timeout: RECONNECT_TIMEOUT_MS });
    expect(await page.getByTestId('live-status').getAttribute('aria-label')).toBe('Live updates disconnected');
    const [r, g, b] = await rgb(page.getByTestId('live-status').locator('span').first());
    expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeLessThan(60); // grey (slate: a little blue)
    await restarting;

    await liveDot(page, 'live').waitFor({ timeout: RECONNECT_TIMEOUT_MS });
    // The socket was back before anything told the page: the reconnect re-read the list.
    await page.waitForFunction(() => document.querySelector('[data-testid="notification-count"]')?.textContent === '2');
    await panel(page).getByText('Order SO-2002 ready', { exact: true }).waitFor();
    // While the server was down the browser logs its failed attempts; nothing else may show.
    expect(errors.filter((text) => !/WebSocket connection to|ERR_CONNECTION_REFUSED/.test(text))).toEqual([]);
  });

  it('closes when the session ends elsewhere, and the page then runs the logged-out handling', async () => {
    const { page, context } = e2e;
    await signInAs(page, 'scribe');
    await liveDot(page, 'live').waitFor();
    // Signing out in another tab of the same browser ends this page's session too: the server
    // closes its socket (4001) and the page re-checks the session instead of reconnecting.
    const other = await context.newPage();
    await other.goto('/');
    // The grey dot and the toast show only until the page leaves for /login 500 ms later: both are
    // watched from before the logout, so a busy machine cannot miss them.
    const wentOffline = liveDot(page, 'offline').waitFor();
    const toastShown = toastText(page, 'You are logged out. Logging in again...').waitFor();
    await other.getByRole('button', { name: 'Logout' }).click();
    await wentOffline;
    await toastShown;
    await page.waitForURL('/login');
  });
});

describe('a notification raised for the signed-in user', () => {
  it("appears as the spec's toast and in the bell without a reload, and the dashboard panel dismisses it", async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse2');
    await liveDot(page, 'live').waitFor();
    const { json: mine } = await api<{ isRead: boolean }[]>(page, 'GET', '/api/notifications');
    const before = mine.filter((n) => !n.isRead).length;
    const shows = (count: number) => (count === 0 ? null : String(count));
    const { json: nurse } = await api<{ id: string }>(page, 'GET', '/api/auth/user');
    const loads: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && loads.push(frame.url()));

    // A scheduler, elsewhere, books a visit with this nurse: the server notifies her.
    const scheduler = await e2e.newPage();
    await signInAs(scheduler, 'scheduler');
    const { json: patients } = await api<{ id: string }[]>(scheduler, 'GET', '/api/patients?limit=1');
    const when = new Date(Date.now() + 40 * 86_400_000);
    when.setUTCHours(4, 0, 0, 0); // an hour no demo visit uses
    const booked = await api(scheduler, 'POST', '/api/appointments', {
      patientId: patients[0]!.id,
      appointmentDate: when.toISOString(),
      duration: 15,
      assignedNurseId: nurse.id,
      roomNumber: `E2E-${Date.now() % 100000}`,
    });
    expect(booked.status).toBe(201);

    await toastText(page, 'Assigned to an appointment').waitFor();
    await page.waitForFunction((text) => (document.querySelector('[data-testid="notification-count"]')?.textContent ?? null) === text, shows(before + 1));
    expect(loads).toEqual([]);

    // In the dashboard panel too; dismissing it there takes it off the bell's count.
    await panel(page).getByRole('button', { name: 'Dismiss: Assigned to an appointment' }).click();
    await page.waitForFunction((text) => (document.querySelector('[data-testid="notification-count"]')?.textContent ?? null) === text, shows(before));
    expect(await panel(page).getByText('Assigned to an appointment', { exact: true }).count()).toBe(0);
  });
});

describe('the bell', () => {
  it('shows the unread count, opens the latest, marks one read and then all read', async () => {
    const { page } = e2e;
    await signInAs(page, 'nurse');
    const errors = consoleErrors(page);
    const bell = page.getByTestId('notification-bell');
    await bellCount(page).waitFor();
    // What the demo gave her (visit notes, a care team, her lab results): the bell counts what is unread and still open.
    const mine = (await api<{ isRead: boolean; isActive: boolean }[]>(page, 'GET', '/api/notifications')).json;
    const unread = mine.filter((n) => !n.isRead && n.isActive).length;
    expect(unread).toBeGreaterThan(1);
    expect(await bellCount(page).innerText()).toBe(String(unread));
    expect(await bell.getAttribute('aria-label')).toBe(`Notifications, ${unread} unread`);

    // Keyboard: Enter opens it with focus inside; Escape closes it and focus is back on the bell.
    await bell.focus();
    await page.keyboard.press('Enter');
    const popover = page.getByRole('dialog', { name: 'Notifications' });
    await popover.waitFor();
    expect(await popover.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    expect(await popover.getByTestId('bell-notification').count()).toBe(Math.min(mine.length, 10));
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'hidden' });
    expect(await bell.evaluate((el) => el === document.activeElement)).toBe(true);

    await bell.click();
    await popover.getByRole('button', { name: 'Mark as read: Notes pending' }).click();
    await page.waitForFunction((text) => document.querySelector('[data-testid="notification-count"]')?.textContent === text, String(unread - 1));
    expect(await bell.getAttribute('aria-label')).toBe(`Notifications, ${unread - 1} unread`);
    // Still listed, now read: the bell shows the latest, read or not.
    expect(await popover.locator('[data-testid="bell-notification"][data-read="true"]').count()).toBe(1);

    await popover.getByRole('button', { name: 'Mark all as read' }).click();
    await bellCount(page).waitFor({ state: 'detached' });
    expect(await bell.getAttribute('aria-label')).toBe('Notifications, none unread');
    expect(await popover.getByRole('button', { name: 'Mark all as read' }).isDisabled()).toBe(true);
    const { json } = await api<{ isRead: boolean }[]>(page, 'GET', '/api/notifications');
    expect(json.every((n) => n.isRead)).toBe(true);
    // Read ones leave the dashboard panel too.
    await panel(page).getByTestId('notifications-empty').waitFor();
    expect(errors).toEqual([]);
  });

  it('fits a small screen', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(page, 'scribe');
    await page.getByTestId('notification-bell').click();
    const box = await page.getByRole('dialog', { name: 'Notifications' }).boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(MOBILE_VIEWPORT.width);
  });
});

describe("the dashboard's Active Notifications panel", () => {
  it('lists the active ones, styled by type; a dismissed one drops out and stays gone', async () => {
    const { page } = e2e;
    await signInAs(page, 'admin');
    const errors = consoleErrors(page);
    const items = panel(page).getByTestId('active-notification');
    await items.first().waitFor();
    // The demo's two for an admin: a critical lab result nobody acknowledged in time, styled as
    // urgent, and a prescription a nurse wrote for her to sign (issue 52), each styled by its type.
    expect(await items.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-type')).sort())).toEqual(['lab_critical', 'prescription_to_sign']);
    const item = items.filter({ hasText: 'Critical lab result not acknowledged' });
    expect(
      await panel(page)
        .getByRole('button', { name: /^View All/ })
        .count(),
    ).toBe(0);
    expect(await bellCount(page).innerText()).toBe('2');

    await item.getByRole('button', { name: 'Dismiss: Critical lab result not acknowledged' }).click();
    await item.waitFor({ state: 'detached' });
    expect(await items.count()).toBe(1);
    await expect.poll(() => bellCount(page).innerText()).toBe('1');
    // Focus is not dropped on <body> when the row and its button go.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Active Notifications');

    await page.reload();
    await items.first().waitFor();
    expect(await item.count()).toBe(0);
    expect(await items.count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it("shows 5, and 'View All (count)' opens the full list, where each can be dismissed too", async () => {
    const { page } = e2e;
    await signInAs(page, 'scheduler');
    const { json: me } = await api<{ id: string }>(page, 'GET', '/api/auth/user');
    const types: TNotificationType[] = ['lab_ordered', 'lab_pending', 'supply_ready', 'chat_mention', 'notes_pending', 'notes_received'];
    const extra = types.map((type, i) => ({ type, title: `Scheduler item ${i + 1}` }));
    await e2e.restartServer({ whileStopped: (database) => addNotifications(database, me.id, extra) });
    await page.reload();
    const errors = consoleErrors(page);

    await panel(page).getByTestId('active-notification').first().waitFor();
    expect(await panel(page).getByTestId('active-notification').count()).toBe(5);
    expect(await bellCount(page).innerText()).toBe('7');
    await panel(page).getByRole('button', { name: 'View All (7)' }).click();
    const dialog = page.getByRole('dialog', { name: 'All Active Notifications (7)' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('active-notification').count()).toBe(7);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Dismiss: Scheduler item 3' }).click();
    await page.getByRole('dialog', { name: 'All Active Notifications (6)' }).waitFor();
    expect(await page.getByRole('dialog').getByTestId('active-notification').count()).toBe(6);
    await page.keyboard.press('Escape');
    await panel(page).getByRole('button', { name: 'View All (6)' }).waitFor();
    expect(await bellCount(page).innerText()).toBe('6');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('gives an unknown type the default style, and says when the list cannot be loaded', async () => {
    const { page } = e2e;
    let answer: 'list' | 'fail' = 'list';
    await page.route('**/api/notifications', (route) =>
      answer === 'fail'
        ? route.fulfill({ status: 500, json: { code: 'server.error', message: 'Something went wrong' } })
        : route.fulfill({
            json: [
              {
                id: '00000000-0000-4000-8000-000000000001',
                type: 'a_type_from_a_newer_server',
                title: 'Something new',
                message: null,
                entityId: null,
                createdAt: new Date().toISOString(),
                isRead: false,
                isActive: true,
              },
              {
                id: '00000000-0000-4000-8000-000000000002',
                type: 'chat_mention',
                title: 'You were mentioned',
                message: null,
                entityId: null,
                createdAt: new Date().toISOString(),
                isRead: false,
                isActive: true,
              },
              {
                id: '00000000-0000-4000-8000-000000000003',
                type: 'chat_mention',
                title: 'Inactive',
                message: null,
                entityId: null,
                createdAt: new Date().toISOString(),
                isRead: false,
                isActive: false,
              },
            ],
          }),
    );
    await signInAs(page, 'scribe');
    const items = panel(page).getByTestId('active-notification');
    await items.first().waitFor();
    expect(await items.count()).toBe(2);
    const [unknown, known] = [items.nth(0), items.nth(1)];
    expect(await unknown.innerText()).toMatch(/^Notification\s+Something new/i);
    expect(await known.innerText()).toMatch(/^Mention\s+You were mentioned/i);
    const tint = (locator: typeof unknown) => locator.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await tint(unknown)).not.toBe(await tint(known));

    answer = 'fail';
    await page.reload();
    await panel(page).getByRole('alert').getByText('Could not load notifications').waitFor();
  });
});
