import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { APPOINTMENT_STATUSES } from '#domain/appointments';
import { openDatabase } from '../server/db/database.ts';
import { users } from '../server/db/schema/auth.ts';
import { noteRevisions, patientNotes } from '../server/db/schema/clinical.ts';
import { createUser, insertAppointment, insertNotification, insertPatient, TEST_PASSWORD } from '../tests/helpers/factories.ts';
import { api } from './helpers/api.ts';
import { DEMO_EMAILS, signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import type { TServerDatabase } from './helpers/server.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

const HOUR = 3_600_000;
/** The scheduler's notifications, newest first: more than the tab's 10, every third one read. */
const SCHEDULER_NOTICES = 12;
/** A scheduler made by the seed with no notification at all. */
let quietScheduler = '';

/**
 * What the demo clinic lacks for these screens, written while the server is down: appointments
 * on past days of the chart's window in every status, one note taken through submission to
 * finalization (its revisions as the workflow writes them), and a run of read and unread
 * notifications for the scheduler.
 */
async function seed(database: TServerDatabase) {
  const opened = await openDatabase(database);
  try {
    const { db } = opened;
    const userId = async (email: string) => (await db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
    const [admin, nurse, scheduler] = [await userId(DEMO_EMAILS.admin), await userId(DEMO_EMAILS.nurse), await userId(DEMO_EMAILS.scheduler)];
    const now = Date.now();
    for (let day = 1; day <= 28; day++) {
      for (let i = 0; i < (day % 4) + 1; i++) {
        const status = APPOINTMENT_STATUSES[(day + i) % APPOINTMENT_STATUSES.length]!;
        await insertAppointment(db, admin, { appointmentDate: new Date(now - day * 24 * HOUR + i * HOUR), status });
      }
    }
    const patient = await insertPatient(db);
    const [note] = await db
      .insert(patientNotes)
      .values({
        patientId: patient.id,
        authorId: nurse,
        noteType: 'Progress Note',
        content: 'Stable.',
        status: 'finalized',
        finalizedAt: new Date(now - 2 * HOUR),
      })
      .returning();
    await db.insert(noteRevisions).values([
      { noteId: note!.id, at: new Date(now - 29 * HOUR), actorId: nurse, action: 'created', toStatus: 'draft', contentAfter: 'Stable.' },
      { noteId: note!.id, at: new Date(now - 28 * HOUR), actorId: nurse, action: 'moved', fromStatus: 'draft', toStatus: 'submitted_to_scribe' },
      { noteId: note!.id, at: new Date(now - 2 * HOUR), actorId: admin, action: 'moved', fromStatus: 'reviewed_by_scribe', toStatus: 'finalized' },
    ]);
    for (let i = 0; i < SCHEDULER_NOTICES; i++) {
      await insertNotification(db, scheduler, {
        type: 'notes_pending',
        title: `Scheduler notice ${i + 1}`,
        message: 'A note waits for review',
        // Newer than the demo clinic's own notice, made when the server first started.
        isRead: i % 3 === 0,
        createdAt: new Date(now + i * 10),
      });
    }
    quietScheduler = (await createUser(db, { role: 'scheduler' })).email;
  } finally {
    await opened.close();
  }
}

beforeAll(async () => {
  await e2e.restartServer({ whileStopped: seed });
});

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
async function tabNames(page: Page) {
  const tabs = page.getByRole('tablist', { name: 'Admin Panel sections' }).getByRole('tab');
  await tabs.first().waitFor();
  return tabs.allTextContents();
}

async function openAnalytics(page: Page) {
  await page.goto('/admin?tab=analytics');
  await page.getByTestId('appointments-chart').locator('svg[role="img"]').waitFor();
}

describe('Analytics tab', () => {
  it("shows the admin the dashboard's figures and the charts, drawn, with their legend and numbers for screen readers", async () => {
    const { page } = e2e;
    await signInAs(page, 'admin');
    await openAnalytics(page);

    expect(await page.getByTestId('stat-todayAppointments').isVisible()).toBe(true);
    expect(await page.getByTestId('stat-activePatients').isVisible()).toBe(true);

    const chart = page.getByTestId('appointments-chart');
    const svg = chart.locator('svg[role="img"]');
    expect(await svg.getAttribute('aria-labelledby')).toBeTruthy();
    const box = (await svg.boundingBox())!;
    expect(box.height).toBeGreaterThan(150);
    // Bars of several statuses, each drawn with a real size.
    const bars = chart.getByTestId('appointment-bar');
    expect(await bars.count()).toBeGreaterThan(20);
    const statuses = new Set(await bars.evaluateAll((rects) => rects.map((r) => r.getAttribute('data-status'))));
    expect(statuses.size).toBe(APPOINTMENT_STATUSES.length);
    expect((await bars.first().boundingBox())!.height).toBeGreaterThan(0);
    // A legend naming every status, and the per-day table (30 rows) for screen readers.
    const legend = chart.getByRole('list', { name: 'Appointment statuses, with totals' });
    for (const label of ['Scheduled', 'Checked in', 'In progress', 'Completed', 'Cancelled', 'No-show']) {
      expect(await legend.getByText(label, { exact: true }).count(), label).toBe(1);
    }
    expect(await chart.locator('table tbody tr').count()).toBe(30);

    const notes = page.getByTestId('notes-chart');
    expect(await notes.getByTestId('note-bar').count()).toBeGreaterThanOrEqual(4);
    expect(await notes.locator('table tbody tr').count()).toBe(5);
    // This file's note and the demo clinic's two finalized ones each took 26 hours from submission to finalization.
    expect(await page.getByTestId('turnaround-average').textContent()).toBe('1 d 2 h');
    expect(await page.getByTestId('turnaround').textContent()).toContain('Over 3 notes finalized in the last 90 days');

    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('fits 375 px: the charts shrink to the screen, nothing scrolls sideways, axe-clean', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(page, 'admin');
    await openAnalytics(page);
    expect(await overflow(page)).toBe(0);
    const svg = (await page.getByTestId('appointments-chart').locator('svg[role="img"]').boundingBox())!;
    expect(svg.x).toBeGreaterThanOrEqual(0);
    expect(svg.x + svg.width).toBeLessThanOrEqual(MOBILE_VIEWPORT.width);
    // Fewer date labels than on a wide screen, so they do not overlap.
    const ticks = await page.getByTestId('appointments-chart').locator('.visx-axis-bottom .visx-axis-tick').count();
    expect(ticks).toBeGreaterThanOrEqual(2);
    expect(ticks).toBeLessThanOrEqual(5);
    expect(await page.getByTestId('notes-chart').getByTestId('note-bar').count()).toBeGreaterThanOrEqual(4);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

describe('the scheduler', () => {
  it('sees the staff directory, Analytics and Notifications, with the charts, and no settings or audit trail', async () => {
    const { page } = e2e;
    await signInAs(page, 'scheduler');
    await page.goto('/admin?tab=analytics');
    expect(await tabNames(page)).toEqual(['User Management', 'Analytics', 'Notifications']);
    await page.getByTestId('appointments-chart').locator('svg[role="img"]').waitFor();
    expect(await page.getByTestId('appointment-bar').count()).toBeGreaterThan(0);
    // Asking for a tab she may not see by address opens the first tab she may see instead.
    await page.goto('/admin?tab=settings');
    await page.getByTestId('users-list').waitFor();
    expect(await page.getByRole('tab', { name: 'User Management' }).getAttribute('aria-selected')).toBe('true');
    expect(await tabNames(page)).toEqual(['User Management', 'Analytics', 'Notifications']);
    // And the server refuses what the hidden tabs and the admin's user list would call.
    expect((await api(page, 'GET', '/api/admin/users')).status).toBe(403);
    expect((await api(page, 'GET', '/api/admin/settings')).status).toBe(403);
    expect((await api(page, 'GET', '/api/admin/analytics')).status).toBe(200);
  });

  it('reads their first 10 notifications, newest first, each marked Read or Unread', async () => {
    const page = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await signInAs(page, 'scheduler');
    await page.goto('/admin?tab=notifications');
    const rows = page.getByTestId('admin-notification');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(10);
    expect(await rows.first().textContent()).toContain(`Scheduler notice ${SCHEDULER_NOTICES}`);
    const states = await rows.getByTestId('notification-read-state').allTextContents();
    // Notices 12 down to 3; every third one (1, 4, 7, 10) was read.
    expect(states).toEqual(['Unread', 'Unread', 'Read', 'Unread', 'Unread', 'Read', 'Unread', 'Unread', 'Read', 'Unread']);
    expect(await overflow(page)).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

describe('Notifications tab with none', () => {
  it("says 'No notifications'", async () => {
    const { page } = e2e;
    await page.goto('/login');
    const status = await page.evaluate(
      async ([email, password]) =>
        (await fetch('/api/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) })).status,
      [quietScheduler, TEST_PASSWORD] as const,
    );
    expect(status).toBe(200);
    await page.goto('/admin?tab=notifications');
    await page.getByTestId('admin-notifications-empty').waitFor();
    expect(await page.getByTestId('admin-notifications-empty').textContent()).toBe('No notifications');
    expect(await page.getByTestId('admin-notification').count()).toBe(0);
  });
});

describe('everyone else', () => {
  it('is refused the analytics by the server', async () => {
    const { page } = e2e;
    for (const account of ['nurse', 'scribe', 'supplier'] as const) {
      await signInAs(page, account);
      expect((await api(page, 'GET', '/api/admin/analytics')).status, account).toBe(403);
      await page.context().clearCookies();
    }
  });
});
