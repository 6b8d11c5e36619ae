import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TLabOrderDetail, TLabResult, TLabTest } from '#domain/labs';
import type { TPatient } from '#domain/patients';
import { LabResultsDialog } from '../../web/src/pages/lab-orders/lab-results-dialog.tsx';
import { fakeApi, type TRoutes } from './helpers/fake-api.ts';
import { NURSE, PATIENT_ID, patient } from './helpers/fixtures.ts';
import { renderApp } from './helpers/render.tsx';

// The results form as an order's detail opens it (its dialog, the catalogue and the patient
// read), driven by the keyboard and mouse; only fetch is faked.

const ORDER_ID = '00000000-0000-4000-8000-0000000001ab';
const POTASSIUM = '00000000-0000-4000-8000-0000000000b1';
const SODIUM = '00000000-0000-4000-8000-0000000000b2';
const CREATININE = '00000000-0000-4000-8000-0000000000b3';
const APPEARANCE = '00000000-0000-4000-8000-0000000000b4';
const any = { sex: null, ageFrom: null, ageTo: null };

const PANEL: TLabTest = {
  id: '00000000-0000-4000-8000-0000000000c1',
  name: 'Basic metabolic panel',
  loinc: '51990-0',
  isActive: true,
  updatedAt: '2026-01-01T00:00:00.000Z',
  analytes: [
    {
      id: POTASSIUM,
      name: 'Potassium',
      loinc: '2823-3',
      unit: 'mmol/L',
      kind: 'numeric',
      ranges: [{ ...any, low: 3.5, high: 5.1, criticalLow: 2.5, criticalHigh: 6.5 }],
    },
    {
      id: SODIUM,
      name: 'Sodium',
      loinc: '2951-2',
      unit: 'mmol/L',
      kind: 'numeric',
      ranges: [{ ...any, low: 136, high: 145, criticalLow: 120, criticalHigh: 160 }],
    },
    {
      id: CREATININE,
      name: 'Creatinine',
      loinc: '2160-0',
      unit: 'mg/dL',
      kind: 'numeric',
      ranges: [
        { ...any, sex: 'female', low: 0.59, high: 1.04, criticalLow: null, criticalHigh: null },
        { ...any, sex: 'male', low: 0.74, high: 1.35, criticalLow: null, criticalHigh: null },
      ],
    },
    { id: APPEARANCE, name: 'Appearance', loinc: null, unit: null, kind: 'text', ranges: [] },
  ],
};

function order(overrides: Partial<TLabOrderDetail> = {}): TLabOrderDetail {
  return {
    id: ORDER_ID,
    patientId: PATIENT_ID,
    patientName: 'Olivia Hart',
    providerId: NURSE.id,
    providerName: 'Nora Bennett',
    testId: PANEL.id,
    orderName: PANEL.name,
    description: null,
    status: 'pending',
    statusReason: null,
    priority: 'stat',
    isUrgent: true,
    orderedAt: '2026-03-04T09:30:00.000Z',
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
    send: null,
    updatedAt: '2026-03-04T10:00:00.123456Z',
    resultRows: [],
    ...overrides,
  };
}

function result(analyteId: string, name: string, value: number, flag: TLabResult['flag'], unit = 'mmol/L'): TLabResult {
  return {
    id: `00000000-0000-4000-8000-${analyteId.slice(-12).replace('b', 'd')}`,
    analyteId,
    name,
    valueNumeric: value,
    valueText: null,
    unit,
    range: null,
    flag,
    source: 'typed',
    resultStatus: 'final',
    flagSource: 'computed',
    enteredAt: '2026-03-04T11:00:00.000Z',
    correctedAt: null,
  };
}

/** The catalogue and a patient of 55 (female unless said), and the PUT answering with the order as saved. */
function routes(extra: TRoutes = {}, who: Partial<TPatient> = {}): TRoutes {
  return {
    'GET /api/lab-tests': () => ({ status: 200, json: [PANEL] }),
    [`GET /api/patients/${PATIENT_ID}`]: () => ({ status: 200, json: patient({ sex: 'female', dateOfBirth: '1970-06-01', ...who }) }),
    [`PUT /api/lab-orders/${ORDER_ID}/results`]: () => ({ status: 200, json: order({ status: 'received' }) }),
    ...extra,
  };
}

function openForm(shown: TLabOrderDetail = order()) {
  return renderApp(<LabResultsDialog order={shown} timeZone="America/New_York" onClose={() => undefined} />);
}

const line = (analyte: string) => screen.getAllByTestId('result-line').find((el) => el.getAttribute('data-analyte') === analyte)!;
const liveFlag = (analyte: string) => within(line(analyte)).getByTestId('live-flag');
/** Once the catalogue and the patient are read: the range that applies to her shows. */
async function ready() {
  await screen.findByLabelText('Potassium (mmol/L)');
  await waitFor(() => expect(line('Potassium').textContent).toContain('Ref.'));
}

describe('the results form', () => {
  it('shows each value’s flag as it is typed, by the range for the patient’s sex and age', async () => {
    fakeApi(routes());
    const { user } = openForm();
    await ready();
    // A patient read in time: the ranges are there (Potassium's only range, Creatinine's for her sex).
    expect(line('Potassium').textContent).toContain('Ref. 3.5–5.1, critical ≤ 2.5 or ≥ 6.5');
    const potassium = screen.getByLabelText('Potassium (mmol/L)');
    await waitFor(() => expect(line('Creatinine').textContent).toContain('Ref. 0.59–1.04'));

    await user.type(potassium, '4.2');
    await waitFor(() => expect(liveFlag('Potassium').getAttribute('data-flag')).toBe('N'));
    expect(liveFlag('Potassium').textContent).toContain('N');
    expect(liveFlag('Potassium').textContent).toContain('Normal');
    await user.clear(potassium);
    await user.type(potassium, '6.8');
    await waitFor(() => expect(liveFlag('Potassium').getAttribute('data-flag')).toBe('HH'));
    expect(liveFlag('Potassium').textContent).toContain('Critical high');
    await user.clear(potassium);
    await user.type(potassium, '2.5');
    // At the critical limit is critical.
    await waitFor(() => expect(liveFlag('Potassium').getAttribute('data-flag')).toBe('LL'));

    // Her range, not a man's: 1.2 is high for her.
    await user.type(screen.getByLabelText('Creatinine (mg/dL)'), '1.2');
    await waitFor(() => expect(liveFlag('Creatinine').getAttribute('data-flag')).toBe('H'));
    // A flag of one's own overrides the computed one, and says so.
    await user.selectOptions(screen.getByLabelText('Flag override for Creatinine'), 'N');
    await waitFor(() => expect(liveFlag('Creatinine').getAttribute('data-flag')).toBe('N'));
    expect(liveFlag('Creatinine').textContent).toContain('entered');
    // The value is described by its range and its flag, for a screen reader.
    expect(potassium.getAttribute('aria-describedby')).toContain(liveFlag('Potassium').id);
  });

  it('uses a man’s range for a man', async () => {
    fakeApi(routes({}, { sex: 'male' }));
    const { user } = openForm();
    await ready();
    await waitFor(() => expect(line('Creatinine').textContent).toContain('Ref. 0.74–1.35'));
    await user.type(screen.getByLabelText('Creatinine (mg/dL)'), '1.2');
    await waitFor(() => expect(liveFlag('Creatinine').getAttribute('data-flag')).toBe('N'));
  });

  it('skips the live flag when the patient cannot be read, and says why', async () => {
    fakeApi(routes({ [`GET /api/patients/${PATIENT_ID}`]: () => ({ status: 403, json: { message: 'Forbidden', code: 'auth.forbidden' } }) }));
    const { user } = openForm();
    await screen.findByTestId('no-live-flags');
    await user.type(screen.getByLabelText('Potassium (mmol/L)'), '6.8');
    expect(liveFlag('Potassium').getAttribute('data-flag')).toBe('');
  });

  it('sends one line per analyte in the catalogue’s order, blanks as not resulted, with the flag entered, the report and the version read', async () => {
    const api = fakeApi(routes());
    const { user } = openForm();
    await ready();
    await user.type(screen.getByLabelText('Sodium (mmol/L)'), '140');
    await user.type(screen.getByLabelText('Potassium (mmol/L)'), '6.8');
    await user.type(screen.getByLabelText('Appearance'), 'Clear');
    await user.selectOptions(screen.getByLabelText('Flag override for Appearance'), 'A');
    await user.type(screen.getByLabelText('Report text'), 'Repeated and confirmed.');
    await user.click(screen.getByRole('button', { name: 'Save Results' }));

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toMatchObject({ method: 'PUT', path: `/api/lab-orders/${ORDER_ID}/results` });
    expect(api.writes()[0]!.body).toEqual({
      results: [
        { analyteId: POTASSIUM, value: 6.8 },
        { analyteId: SODIUM, value: 140 },
        { analyteId: CREATININE, value: null },
        { analyteId: APPEARANCE, value: 'Clear', flag: 'A', flagSource: 'entered' },
      ],
      resultsText: 'Repeated and confirmed.',
      attachments: [],
      updatedAt: order().updatedAt,
    });
    await screen.findByText('Results saved');
  });

  it('asks for something before a first entry, and sends nothing', async () => {
    const api = fakeApi(routes());
    const { user } = openForm();
    await ready();
    await user.click(screen.getByRole('button', { name: 'Save Results' }));
    expect((await screen.findByTestId('results-error')).textContent).toBe('Enter at least one result, the report text or the report file');
    expect(api.writes()).toEqual([]);
    // No reason is asked of a first entry.
    expect(screen.queryByLabelText(/^Reason for the correction/)).toBeNull();
  });

  it("puts the server's refusal of a value under that value's input", async () => {
    fakeApi(
      routes({
        [`PUT /api/lab-orders/${ORDER_ID}/results`]: () => ({
          status: 400,
          json: { message: 'Validation failed', code: 'validation.failed', errors: [{ path: 'results.1.value', message: 'Must be a number' }] },
        }),
      }),
    );
    const { user } = openForm();
    await ready();
    await user.type(screen.getByLabelText('Sodium (mmol/L)'), '140');
    await user.click(screen.getByRole('button', { name: 'Save Results' }));
    expect((await screen.findByTestId('results.1.value-error')).textContent).toBe('Must be a number');
    expect(screen.getByLabelText('Sodium (mmol/L)').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('lab-results-error')).toBeNull();
  });
});

describe('a correction', () => {
  const entered = order({
    status: 'received',
    receivedAt: '2026-03-04T11:00:00.000Z',
    worstFlag: 'HH',
    results: 'First report',
    attachments: ['/api/objects/00000000-0000-4000-8000-0000000000f1'],
    resultRows: [result(POTASSIUM, 'Potassium', 6.8, 'HH'), result(SODIUM, 'Sodium', 140, 'N')],
  });

  it('starts from what was entered and needs its reason before anything is sent', async () => {
    const api = fakeApi(routes());
    const { user } = openForm(entered);
    await ready();
    expect(screen.getByRole('dialog').querySelector('h2')?.textContent).toBe('Correct Results');
    const potassium = screen.getByLabelText('Potassium (mmol/L)') as HTMLInputElement;
    expect(potassium.value).toBe('6.8');
    expect((screen.getByLabelText('Report text') as HTMLTextAreaElement).value).toBe('First report');
    await user.clear(potassium);
    await user.type(potassium, '4.6');
    await user.click(screen.getByRole('button', { name: 'Save Correction' }));

    expect((await screen.findByTestId('correctionReason-error')).textContent).toBe('Say why the results are corrected');
    expect(api.writes()).toEqual([]);

    await user.type(screen.getByLabelText(/^Reason for the correction/), 'Haemolysed specimen, redrawn');
    await user.click(screen.getByRole('button', { name: 'Save Correction' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]!.body).toEqual({
      results: [
        { analyteId: POTASSIUM, value: 4.6 },
        { analyteId: SODIUM, value: 140 },
        { analyteId: CREATININE, value: null },
        { analyteId: APPEARANCE, value: null },
      ],
      resultsText: 'First report',
      // The lab's file stays attached.
      attachments: entered.attachments,
      correctionReason: 'Haemolysed specimen, redrawn',
      updatedAt: entered.updatedAt,
    });
    await screen.findByText('Results corrected');
  });
});
