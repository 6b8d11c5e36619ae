import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TLabInboxDetail } from '#domain/lab-interfaces';
import type { TLabOrder } from '#domain/labs';
import { LabInboxDialog } from '../../web/src/pages/lab-orders/lab-inbox-dialog.tsx';
import { fakeApi, type TRoutes } from './helpers/fake-api.ts';
import { NURSE, OLIVIA, PATIENT_ID, patient } from './helpers/fixtures.ts';
import { renderApp, toasts } from './helpers/render.tsx';

// A message from the lab that waits for a person, opened as the 'From the lab' tab opens it:
// its problem and segments, then filed to the patient's order (or a new one) after comparing
// her with the message, or rejected with a reason. Only fetch is faked.

const MESSAGE_ID = '00000000-0000-4000-8000-0000000005a1';
const ORDER_ID = '00000000-0000-4000-8000-0000000001ab';
const OTHER_ID = '00000000-0000-4000-8000-00000000b0b0';
const UPDATED_AT = '2026-03-04T10:00:00.123456Z';

function message(overrides: Partial<TLabInboxDetail> = {}): TLabInboxDetail {
  return {
    id: MESSAGE_ID,
    receivedAt: '2026-03-04T15:15:00.000Z',
    channel: 'hl7',
    sender: 'HL7LAB^MAIN',
    controlId: 'MSG-0001',
    messageType: 'ORU^R01',
    status: 'unmatched',
    problem: 'The birth date (PID-7) is not the order’s patient’s',
    messagePatient: 'Olivia Hart',
    messageBirthDate: '1984-03-13',
    patientId: PATIENT_ID,
    groups: [{ placerNumber: 'L000042', testName: 'Electrolytes', observations: 2, orderId: null }],
    resolvedAt: null,
    resolvedByName: null,
    updatedAt: UPDATED_AT,
    segments: [
      {
        name: 'MSH',
        fields: [
          { n: 1, value: '|' },
          { n: 2, value: '^~\\&' },
          { n: 3, value: 'HL7LAB' },
          { n: 10, value: 'MSG-0001' },
        ],
      },
      {
        name: 'PID',
        fields: [
          { n: 3, value: `${PATIENT_ID}^^^CLINIC^MR` },
          { n: 5, value: 'Hart^Olivia' },
          { n: 7, value: '19840313' },
        ],
      },
      {
        name: 'OBX',
        fields: [
          { n: 3, value: '2823-3^Potassium^LN' },
          { n: 5, value: '5.8' },
        ],
      },
    ],
    truncated: false,
    ...overrides,
  };
}

function order(overrides: Partial<TLabOrder> = {}): TLabOrder {
  return {
    id: ORDER_ID,
    patientId: PATIENT_ID,
    patientName: 'Olivia Hart',
    providerId: NURSE.id,
    providerName: 'Nora Bennett',
    testId: null,
    orderName: 'Electrolytes',
    description: null,
    status: 'ordered',
    statusReason: null,
    priority: 'routine',
    isUrgent: false,
    orderedAt: '2026-03-02T09:30:00.000Z',
    expectedOn: null,
    receivedAt: null,
    collectedAt: null,
    collectedByName: null,
    results: null,
    attachments: [],
    attachmentFiles: [],
    reviewedAt: null,
    reviewedById: null,
    reviewedByName: null,
    worstFlag: null,
    criticalAlertId: null,
    placerNumber: 'L000042',
    updatedAt: '2026-03-02T09:30:00.123456Z',
    ...overrides,
  } as TLabOrder;
}

/** The message, Olivia's record (born 1984-03-12) and her open orders; writes answer with the message handled. */
function routes(extra: TRoutes = {}, shown: TLabInboxDetail = message()): TRoutes {
  return {
    [`GET /api/lab-inbox/${MESSAGE_ID}`]: () => ({ status: 200, json: shown }),
    'GET /api/patients/*': () => ({ status: 200, json: patient() }),
    'GET /api/lab-orders': () => ({ status: 200, json: [order()] }),
    [`POST /api/lab-inbox/${MESSAGE_ID}/file`]: () => ({
      status: 200,
      json: message({ status: 'matched', groups: [{ ...shown.groups[0]!, orderId: ORDER_ID }] }),
    }),
    [`POST /api/lab-inbox/${MESSAGE_ID}/reject`]: () => ({ status: 200, json: message({ status: 'rejected', problem: 'Sent twice' }) }),
    ...extra,
  };
}

function openDialog() {
  const onClose = vi.fn();
  const view = renderApp(<LabInboxDialog messageId={MESSAGE_ID} timeZone="America/New_York" onClose={onClose} onOpenOrder={() => undefined} />);
  return { ...view, onClose };
}

/** 'File Results…', then the patient the message named, read. */
async function startFiling(user: ReturnType<typeof openDialog>['user']) {
  await user.click(await screen.findByRole('button', { name: 'File Results…' }));
  await screen.findByTestId('lab-inbox-patient-check');
}

const target = () => screen.getByLabelText(/^Report 1: Electrolytes/) as HTMLSelectElement;

describe('a message waiting from the lab', () => {
  it('shows why it waits, the patient in its own words, its reports, and the message as segments and fields', async () => {
    fakeApi(routes());
    openDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Message from HL7LAB^MAIN' });
    expect(within(dialog).getByTestId('lab-inbox-problem').textContent).toBe('Why it waits: The birth date (PID-7) is not the order’s patient’s');
    expect(within(dialog).getByTestId('lab-inbox-message-patient').textContent).toBe('Message says: Olivia Hart, born 1984-03-13');
    expect(within(dialog).getByTestId('lab-inbox-report').textContent).toContain('placer no. L000042');
    expect(
      within(dialog)
        .getAllByTestId('lab-inbox-segment')
        .map((row) => row.textContent),
    ).toEqual(['MSH', 'PID', 'OBX']);
    const birth = within(dialog)
      .getAllByTestId('lab-inbox-field')
      .find((row) => row.getAttribute('data-field') === 'PID-7')!;
    expect(birth.querySelector('td')!.textContent).toBe('19840313');
    // The field the problem names is marked, for the eye and for a screen reader.
    expect(birth.getAttribute('data-marked')).toBe('true');
    expect(birth.textContent).toContain('named by the problem');
    expect(within(dialog).getByRole('rowheader', { name: 'MSH-10' })).toBeTruthy();
  });
});

describe('filing', () => {
  it('puts the record beside the message, marks the birth date that differs, asks for each report’s order, then sends it', async () => {
    const api = fakeApi(routes());
    const { user, onClose } = openDialog();
    await startFiling(user);
    const check = screen.getByTestId('lab-inbox-patient-check');
    expect(check.getAttribute('data-mismatch')).toBe('true');
    expect(check.textContent).toContain('The birth date in the message differs from the record');
    const line = (field: string) =>
      within(check)
        .getAllByTestId('lab-inbox-compare')
        .find((row) => row.getAttribute('data-field') === field)!;
    expect(line('Born').getAttribute('data-same')).toBe('false');
    expect(line('Born').textContent).toBe('Born1984-03-131984-03-12 differs');
    expect(line('Name').getAttribute('data-same')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'File Results' }));
    expect((await screen.findByTestId('targets.0-error')).textContent).toBe('Choose an order, or a new order');
    expect(api.writes()).toEqual([]);

    // Her open orders are offered, the one with the placer number the lab sent said so.
    await waitFor(() => expect(target().options.length).toBe(3));
    expect(target().options[1]!.textContent).toBe('Electrolytes · L000042 · ordered Mar 2, 2026 (the placer number sent)');
    const orders = api.requests.find((r) => r.path === '/api/lab-orders')!;
    expect(Object.fromEntries(orders.search)).toMatchObject({ view: 'outstanding', patientId: PATIENT_ID });

    await user.selectOptions(target(), ORDER_ID);
    await user.click(screen.getByRole('button', { name: 'File Results' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({ method: 'POST', path: `/api/lab-inbox/${MESSAGE_ID}/file` });
    expect(api.writes()[0]!.body).toEqual({ groups: [{ orderId: ORDER_ID }], updatedAt: UPDATED_AT });
    await toasts().findByText('Results filed');
    expect(onClose).toHaveBeenCalled();
  });

  it('files to a new order for a patient found with the picker when the message named no record', async () => {
    const other = { ...OLIVIA, id: OTHER_ID, firstName: 'Olivia', lastName: 'Hart', dateOfBirth: '1984-03-13' };
    const api = fakeApi(
      routes(
        {
          'GET /api/patients': () => ({ status: 200, json: [other] }),
          'GET /api/patients/*': () => ({ status: 200, json: patient(other) }),
          'GET /api/lab-orders': () => ({ status: 200, json: [] }),
        },
        message({ patientId: null }),
      ),
    );
    const { user } = openDialog();
    await user.click(await screen.findByRole('button', { name: 'File Results…' }));
    expect(screen.queryByTestId('lab-inbox-patient-check')).toBeNull();
    await user.type(screen.getByLabelText(/^Patient/), 'Hart');
    await user.click(await screen.findByRole('option', { name: /Olivia Hart/ }));
    // Name and birth date agree: said in words, not only in green.
    const check = await screen.findByTestId('lab-inbox-patient-check');
    expect(check.getAttribute('data-mismatch')).toBe('false');
    expect(check.textContent).toContain('The message’s name and birth date are the record’s.');
    await screen.findByTestId('lab-inbox-no-orders');

    await user.selectOptions(target(), 'new');
    await user.click(screen.getByRole('button', { name: 'File Results' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]!.body).toEqual({ groups: [{ patientId: OTHER_ID }], updatedAt: UPDATED_AT });
  });

  it("puts the server's refusal of a report under that report's choice", async () => {
    fakeApi(
      routes({
        [`POST /api/lab-inbox/${MESSAGE_ID}/file`]: () => ({
          status: 400,
          json: { message: 'Validation failed', code: 'validation.failed', errors: [{ path: 'groups.0.orderId', message: 'This order was cancelled' }] },
        }),
      }),
    );
    const { user, onClose } = openDialog();
    await startFiling(user);
    await waitFor(() => expect(target().options.length).toBe(3));
    await user.selectOptions(target(), ORDER_ID);
    await user.click(screen.getByRole('button', { name: 'File Results' }));
    expect((await screen.findByTestId('targets.0-error')).textContent).toBe('This order was cancelled');
    expect(target().getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('lab-inbox-file-error')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('says when someone changed the message meanwhile, and sends the version read again after a reload', async () => {
    let filed = 0;
    const api = fakeApi(
      routes({
        [`POST /api/lab-inbox/${MESSAGE_ID}/file`]: () =>
          filed++ === 0
            ? { status: 409, json: { message: 'This message was changed by someone else. Reload it, then try again.', code: 'record.stale' } }
            : { status: 200, json: message({ status: 'matched' }) },
        [`GET /api/lab-inbox/${MESSAGE_ID}`]: () => ({ status: 200, json: message({ updatedAt: filed ? '2026-03-04T11:00:00.000000Z' : UPDATED_AT }) }),
      }),
    );
    const { user } = openDialog();
    await startFiling(user);
    await waitFor(() => expect(target().options.length).toBe(3));
    await user.selectOptions(target(), 'new');
    await user.click(screen.getByRole('button', { name: 'File Results' }));
    const stale = await screen.findByTestId('lab-inbox-stale');
    await user.click(within(stale).getByRole('button', { name: 'Reload message' }));
    await waitFor(() => expect(screen.queryByTestId('lab-inbox-stale')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'File Results' }));
    await waitFor(() => expect(api.writes()).toHaveLength(2));
    expect(api.writes()[1]!.body).toMatchObject({ updatedAt: '2026-03-04T11:00:00.000000Z' });
  });
});

describe('rejecting', () => {
  it('needs a reason, then sends it with the version shown', async () => {
    const api = fakeApi(routes());
    const { user, onClose } = openDialog();
    await user.click(await screen.findByRole('button', { name: 'Reject…' }));
    await user.click(screen.getByRole('button', { name: 'Reject Message' }));
    expect((await screen.findByTestId('reason-error')).textContent).toBe('Reason is required');
    expect(api.writes()).toEqual([]);

    await user.type(screen.getByLabelText(/^Reason/), '  Sent twice  ');
    await user.click(screen.getByRole('button', { name: 'Reject Message' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({ method: 'POST', path: `/api/lab-inbox/${MESSAGE_ID}/reject` });
    expect(api.writes()[0]!.body).toEqual({ reason: 'Sent twice', updatedAt: UPDATED_AT });
    await toasts().findByText('Message rejected');
    expect(onClose).toHaveBeenCalled();
  });

  it('offers nothing to do on a message already handled, and says by whom', async () => {
    fakeApi(routes({}, message({ status: 'rejected', problem: 'Sent twice', resolvedAt: '2026-03-04T16:00:00.000Z', resolvedByName: 'Nora Bennett' })));
    openDialog();
    const handled = await screen.findByTestId('lab-inbox-handled');
    expect(handled.textContent).toBe('Rejected by Nora Bennett, Mar 4, 11:00 AM.');
    expect(screen.getByTestId('lab-inbox-problem').textContent).toBe('Rejected: Sent twice');
    expect(screen.queryByRole('button', { name: 'File Results…' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reject…' })).toBeNull();
  });
});
