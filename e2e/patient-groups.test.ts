import { mkdirSync } from 'node:fs';
import type { Group } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TPatientGroupDetail } from '#domain/patient-groups';
import { api } from './helpers/api.ts';
import { signInAs } from './helpers/auth.ts';
import { seriousA11yViolations } from './helpers/axe.ts';
import { MOBILE_VIEWPORT } from './helpers/browser.ts';
import { toastText, uniqueWord } from './helpers/page.ts';
import { useE2E } from './helpers/suite.ts';

const e2e = useE2E();

// Admin Panel → Patient Groups (issue 53): an admin makes a group, adds a patient with the
// shared picker, sees its id for API clients' `Group/{id}/$export`, renames it, removes the
// patient and deletes it.

/** Where the screenshots go that the test run leaves for a person to look at. */
const SHOTS = '/tmp/patient-groups-shots';
mkdirSync(SHOTS, { recursive: true });

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function openGroups(page: Page) {
  await signInAs(page, 'admin', { landOn: '/admin?tab=patient-groups' });
  await page.getByRole('heading', { name: 'Patient groups' }).waitFor();
}

describe('Admin Panel, Patient Groups', () => {
  it('creates a group, adds a patient with the picker, shows the id to export it by, renames it, removes her and deletes it', async () => {
    const { page } = e2e;
    await openGroups(page);
    // The demo clinic's hypertension programme (server/seed/demo-clinic.ts); the page says how a group is exported.
    const demo = page.getByTestId('patient-group').filter({ hasText: 'Hypertension programme' });
    expect(await demo.getByTestId('patient-group-count').innerText()).toBe('2 patients');
    expect(await page.getByRole('region', { name: 'Patient groups' }).innerText()).toContain('GET /fhir/R4/Group/{id}/$export');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'New group' }).click();
    const dialog = page.getByRole('dialog', { name: 'New patient group' });
    // Nothing named: the field says so and nothing is sent.
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await dialog.getByTestId('patient-group-name-error').waitFor();
    const name = `Study ${uniqueWord()}`;
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await toastText(page, 'Patient group created').waitFor();

    const row = page.getByTestId('patient-group').filter({ hasText: name });
    // A new group opens, ready for its first patient.
    await row.getByTestId('patient-group-no-members').waitFor();
    expect(await row.getByTestId('patient-group-count').innerText()).toBe('0 patients');
    const groupId = (await row.getAttribute('data-group-id'))!;
    expect(await row.getByTestId('patient-group-id').innerText()).toBe(groupId);

    await row.getByRole('button', { name: `Add patient to ${name}` }).click();
    const adding = page.getByRole('dialog', { name: `Add a patient to ${name}` });
    // No one chosen: refused in the form.
    await adding.getByRole('button', { name: 'Add to group' }).click();
    expect(await adding.getByTestId('patientId-error').innerText()).toBe('Choose a patient');
    await adding.getByLabel(/^Patient/).pressSequentially('Olivia', { delay: 20 });
    await page.getByTestId('patient-option').filter({ hasText: 'Olivia Hart' }).first().click();
    await adding.getByTestId('chosen-patient').waitFor();
    await adding.getByRole('button', { name: 'Add to group' }).click();
    await toastText(page, 'Added to the group').waitFor();
    const member = row.getByTestId('patient-group-member');
    await member.filter({ hasText: 'Olivia Hart #' }).waitFor();
    await row.getByTestId('patient-group-count').getByText('1 patient', { exact: true }).waitFor();
    const patientId = (await member.getAttribute('data-patient-id'))!;

    // What the server holds, and what an API client reading the FHIR Group gets.
    const { json: detail } = await api<TPatientGroupDetail>(page, 'GET', `/api/admin/patient-groups/${groupId}`);
    expect(detail).toMatchObject({ name, memberCount: 1, members: [{ id: patientId, firstName: 'Olivia', lastName: 'Hart' }] });
    const { json: group } = await api<Group>(page, 'GET', `/fhir/R4/Group/${groupId}`);
    expect(group).toMatchObject({
      resourceType: 'Group',
      actual: true,
      type: 'person',
      name,
      quantity: 1,
      member: [{ entity: { reference: `Patient/${patientId}` } }],
    });
    expect(JSON.stringify(group)).not.toContain('Olivia');

    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/patient-groups-1280.png`, fullPage: true });

    // On a phone: nothing wider than the screen.
    const mobile = await e2e.newPage({ viewport: MOBILE_VIEWPORT });
    await openGroups(mobile);
    const mobileRow = mobile.getByTestId('patient-group').filter({ hasText: name });
    await mobileRow.getByRole('button', { name: `Members of ${name}` }).click();
    await mobileRow.getByTestId('patient-group-member').waitFor();
    expect(await overflow(mobile)).toBeLessThanOrEqual(0);
    // The layout scrolls its main column, not the page: the members are brought into view to be seen.
    await mobileRow.getByTestId('patient-group-member').scrollIntoViewIfNeeded();
    await mobile.screenshot({ path: `${SHOTS}/patient-groups-375.png` });
    expect(await seriousA11yViolations(mobile)).toEqual([]);

    await row.getByRole('button', { name: `Rename ${name}` }).click();
    const renaming = page.getByRole('dialog', { name: 'Rename patient group' });
    const renamed = `${name} 2026`;
    await renaming.getByRole('textbox', { name: 'Name', exact: true }).fill(renamed);
    await renaming.getByRole('button', { name: 'Save name' }).click();
    await toastText(page, 'Patient group renamed').waitFor();
    const renamedRow = page.locator(`[data-testid=patient-group][data-group-id="${groupId}"]`);
    await renamedRow.getByTestId('patient-group-name').getByText(renamed, { exact: true }).waitFor();

    await renamedRow.getByRole('button', { name: /^Remove Olivia Hart #/ }).click();
    await toastText(page, 'Removed from the group').waitFor();
    await renamedRow.getByTestId('patient-group-no-members').waitFor();

    await renamedRow.getByRole('button', { name: `Delete ${renamed}` }).click();
    await page
      .getByRole('dialog', { name: `Delete ${renamed}?` })
      .getByRole('button', { name: 'Delete group' })
      .click();
    await toastText(page, 'Patient group deleted').waitFor();
    await renamedRow.waitFor({ state: 'detached' });
    expect((await api(page, 'GET', `/api/admin/patient-groups/${groupId}`)).status).toBe(404);

    // With the demo's own group gone too, the empty state says what a group is for.
    await demo.getByRole('button', { name: 'Delete Hypertension programme' }).click();
    await page.getByRole('dialog', { name: 'Delete Hypertension programme?' }).getByRole('button', { name: 'Delete group' }).click();
    await page.getByTestId('patient-groups-empty').waitFor();
  });
});
