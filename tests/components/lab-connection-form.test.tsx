import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TCurrentUser } from '#domain/auth';
import type { TLabConnection } from '#domain/lab-interfaces';
import type { TLabTest } from '#domain/labs';
import { LabInterfaceTab } from '../../web/src/pages/admin/lab-interface-tab.tsx';
import { fakeApi } from './helpers/fake-api.ts';
import { renderApp, toasts } from './helpers/render.tsx';

// Admin Panel → Lab Interface: a lab's settings and its codes for the catalogue's tests, checked
// by the server's own schema before anything is sent; what the server still refuses shows under
// the input it names. Only fetch is faked.

const ADMIN: TCurrentUser = { id: '00000000-0000-4000-8000-000000000003', email: 'ada@clinic.example', firstName: 'Ada', lastName: 'Okafor', role: 'admin' };
const test = (id: string, name: string, isActive = true): TLabTest => ({
  id,
  name,
  loinc: null,
  isActive,
  updatedAt: '2026-01-01T00:00:00.000Z',
  analytes: [],
});
const BMP = test('00000000-0000-4000-8000-0000000000b1', 'Basic metabolic panel');
const TSH = test('00000000-0000-4000-8000-0000000000b2', 'Thyroid stimulating hormone');
const OLD = test('00000000-0000-4000-8000-0000000000b3', 'Bleeding time', false);
const NORTHWIND: TLabConnection = {
  id: '00000000-0000-4000-8000-0000000000d1',
  name: 'Northwind Lab',
  host: 'hl7.northwind.example',
  port: 2575,
  messageType: 'ORM^O01',
  receivingApplication: 'NWLAB',
  receivingFacility: 'EAST',
  isActive: true,
  codes: [{ testId: OLD.id, testName: OLD.name, code: 'NW-BT' }],
  updatedAt: '2026-11-28T10:00:00.123456Z',
};

const catalogue = { 'GET /api/lab-tests': () => ({ status: 200, json: [BMP, OLD, TSH] }), 'GET /api/admin/lab-sends': () => ({ status: 200, json: [] }) };
const dialog = () => screen.getByRole('dialog');
const codeRows = () => within(dialog()).queryAllByTestId('lab-code-row');

describe('the lab connection form', () => {
  it("refuses what the server would, says a row needs a test and a test needs one code, then sends the lab with its codes; the server's refusals show under their inputs", async () => {
    const api = fakeApi({
      ...catalogue,
      'GET /api/admin/lab-connections': () => ({ status: 200, json: [] }),
      'POST /api/admin/lab-connections': () => ({
        status: 400,
        json: {
          message: 'Validation failed',
          code: 'validation.failed',
          errors: [
            { path: 'codes.1.code', message: 'Already the code of another test' },
            { path: 'host', message: 'Not an address of this network' },
          ],
        },
      }),
    });
    const { user } = renderApp(<LabInterfaceTab user={ADMIN} />);
    await screen.findByTestId('lab-connections-empty');
    await user.click(screen.getByRole('button', { name: 'Add lab' }));
    const form = within(dialog());
    // A retired test is not offered to a new row.
    await user.click(form.getByRole('button', { name: 'Add test code' }));
    await waitFor(() => expect(within(codeRows()[0]!).getByRole('option', { name: BMP.name })).toBeTruthy());
    expect(within(codeRows()[0]!).queryByRole('option', { name: /Bleeding time/ })).toBeNull();
    await user.click(form.getByRole('button', { name: 'Add test code' }));
    await user.selectOptions(within(codeRows()[1]!).getByRole('combobox', { name: 'Test' }), BMP.name);
    await user.click(form.getByRole('button', { name: 'Add test code' }));
    await user.selectOptions(within(codeRows()[2]!).getByRole('combobox', { name: 'Test' }), BMP.name);
    await user.type(form.getByRole('spinbutton', { name: 'Port' }), '70000');
    await user.type(form.getByRole('textbox', { name: 'Receiving application' }), 'NW|LAB');
    await user.click(form.getByRole('button', { name: 'Add lab' }));

    expect((await screen.findByTestId('name-error')).textContent).toBe('Name is required');
    expect(screen.getByTestId('host-error').textContent).toBe('Host is required');
    expect(screen.getByTestId('port-error').textContent).toBe('At most 65535');
    expect(screen.getByTestId('receivingApplication-error').textContent).toBe('Without the characters | ^ ~ \\ &');
    expect(screen.getByTestId('codes.0.testId-error').textContent).toBe('Choose a test');
    expect(screen.getByTestId('codes.1.code-error').textContent).toBe('Code is required');
    expect(screen.getByTestId('codes.2.testId-error').textContent).toBe('This test has a code above');
    expect(api.writes()).toEqual([]);

    // The empty row goes; what was the third row is now the second, and takes another test.
    await user.click(within(codeRows()[0]!).getByRole('button', { name: 'Remove the code of Row 1' }));
    expect(codeRows()).toHaveLength(2);
    await user.selectOptions(within(codeRows()[1]!).getByRole('combobox', { name: 'Test' }), TSH.name);
    await user.type(within(codeRows()[0]!).getByRole('textbox', { name: "Lab's code" }), 'NW-BMP');
    await user.type(within(codeRows()[1]!).getByRole('textbox', { name: "Lab's code" }), 'NW-TSH');
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'Northwind Lab');
    await user.type(form.getByRole('textbox', { name: 'Host' }), 'hl7.northwind.example');
    await user.clear(form.getByRole('spinbutton', { name: 'Port' }));
    await user.type(form.getByRole('spinbutton', { name: 'Port' }), '2575');
    await user.selectOptions(form.getByRole('combobox', { name: 'Message' }), 'OML^O21');
    await user.clear(form.getByRole('textbox', { name: 'Receiving application' }));
    await user.type(form.getByRole('textbox', { name: 'Receiving application' }), 'NWLAB');
    await user.click(form.getByRole('button', { name: 'Add lab' }));

    expect((await screen.findByTestId('host-error')).textContent).toBe('Not an address of this network');
    expect(api.writes()).toHaveLength(1);
    expect(api.writes()[0]!.body).toEqual({
      name: 'Northwind Lab',
      host: 'hl7.northwind.example',
      port: 2575,
      messageType: 'OML^O21',
      receivingApplication: 'NWLAB',
      receivingFacility: '',
      isActive: true,
      codes: [
        { testId: BMP.id, code: 'NW-BMP' },
        { testId: TSH.id, code: 'NW-TSH' },
      ],
    });
    expect(screen.getByTestId('codes.1.code-error').textContent).toBe('Already the code of another test');
    expect(within(codeRows()[1]!).getByRole('textbox', { name: "Lab's code" }).getAttribute('aria-invalid')).toBe('true');
    expect(within(codeRows()[0]!).getByRole('textbox', { name: "Lab's code" }).getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByTestId('lab-connection-error')).toBeNull();
  });

  it('edits a lab against the version read, keeping the retired test it codes; a stale save says so and holds the form', async () => {
    const api = fakeApi({
      ...catalogue,
      'GET /api/admin/lab-connections': () => ({ status: 200, json: [NORTHWIND] }),
      [`PUT /api/admin/lab-connections/${NORTHWIND.id}`]: () => ({
        status: 409,
        json: { message: 'This lab was changed by someone else. Reload it, then try again.', code: 'record.stale' },
      }),
    });
    const { user } = renderApp(<LabInterfaceTab user={ADMIN} />);
    expect((await screen.findByTestId('lab-connection-coded')).textContent).toBe('1 test coded');
    await user.click(screen.getByRole('button', { name: /^Edit/ }));
    const form = within(dialog());
    await waitFor(() => expect((within(codeRows()[0]!).getByRole('combobox', { name: 'Test' }) as HTMLSelectElement).value).toBe(OLD.id));
    expect(within(codeRows()[0]!).getByRole('option', { name: 'Bleeding time (retired)' })).toBeTruthy();
    await user.click(form.getByRole('checkbox', { name: /Send orders to this lab/ }));
    await user.click(form.getByRole('button', { name: 'Save lab' }));

    expect((await screen.findByTestId('lab-connection-stale')).textContent).toContain('changed by someone else');
    expect(api.writes()[0]!.body).toEqual({
      name: 'Northwind Lab',
      host: 'hl7.northwind.example',
      port: 2575,
      messageType: 'ORM^O01',
      receivingApplication: 'NWLAB',
      receivingFacility: 'EAST',
      isActive: false,
      codes: [{ testId: OLD.id, code: 'NW-BT' }],
      updatedAt: NORTHWIND.updatedAt,
    });
    expect((form.getByRole('button', { name: 'Save lab' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("sends a test message and shows the lab's answer; a failed send goes again and the list is read again", async () => {
    let failed = [
      {
        id: '00000000-0000-4000-8000-0000000000e1',
        orderId: '00000000-0000-4000-8000-0000000000f1',
        placerNumber: 'L000042',
        orderName: BMP.name,
        labName: NORTHWIND.name,
        status: 'failed',
        attempts: 8,
        lastError: 'connect ECONNREFUSED 10.0.0.9:2575',
        nextAttemptAt: null,
        acknowledgedAt: null,
        updatedAt: '2026-11-28T10:00:00.000Z',
      },
    ];
    const api = fakeApi({
      ...catalogue,
      'GET /api/admin/lab-connections': () => ({ status: 200, json: [NORTHWIND] }),
      'GET /api/admin/lab-sends': () => ({ status: 200, json: failed }),
      [`POST /api/admin/lab-connections/${NORTHWIND.id}/test`]: () => ({
        status: 200,
        json: { ok: false, ackCode: 'AR', detail: 'The lab answered AR: Unknown test code' },
      }),
      'POST /api/admin/lab-sends/00000000-0000-4000-8000-0000000000e1/retry': () => {
        failed = [];
        return { status: 204 };
      },
    });
    const { user } = renderApp(<LabInterfaceTab user={ADMIN} />);
    await user.click(await screen.findByRole('button', { name: /^Send test message/ }));
    const answer = await screen.findByRole('alert');
    expect(answer.textContent).toBe('Northwind Lab refused the test message (AR)The lab answered AR: Unknown test code');

    const send = await screen.findByTestId('lab-send-failed');
    expect(send.textContent).toContain('L000042');
    expect(within(send).getByTestId('lab-send-error').textContent).toBe('connect ECONNREFUSED 10.0.0.9:2575');
    await user.click(within(send).getByRole('button', { name: /^Send again/ }));
    await waitFor(() => expect(toasts().getByText('Sending again')).toBeTruthy());
    await screen.findByTestId('lab-sends-empty');
    expect(api.writes().map((w) => w.path)).toEqual([
      `/api/admin/lab-connections/${NORTHWIND.id}/test`,
      '/api/admin/lab-sends/00000000-0000-4000-8000-0000000000e1/retry',
    ]);
  });
});
