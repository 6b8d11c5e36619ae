import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TPrescription, TPrescriptionAlert } from '#domain/prescriptions';
import { SignPrescriptionDialog } from '../../web/src/pages/prescriptions/sign-prescription-dialog.tsx';
import { fakeApi } from './helpers/fake-api.ts';
import { PATIENT_ID, patient } from './helpers/fixtures.ts';
import { renderApp } from './helpers/render.tsx';

// Signing a draft (issue 52): a high alert needs its reason, shown under its own field; the
// overrides sent name each alert as the server matches them. Only fetch is faked.

const RX_ID = '00000000-0000-4000-8000-0000000000f1';
const ALLERGY: TPrescriptionAlert = {
  check: 'allergy',
  severity: 'high',
  reason: 'She is allergic to Penicillins; Amoxicillin 500 mg capsule is one of the penicillins.',
  about: 'Penicillins',
  source: 'drug classes',
};
const LOW: TPrescriptionAlert = { check: 'duplicate', severity: 'low', reason: 'Same class.', about: 'Cefalexin', source: 'ATC' };
const RX = {
  id: RX_ID,
  number: 'RX-000042',
  patientId: PATIENT_ID,
  patientName: 'Olivia Hart',
  formularyId: '00000000-0000-4000-8000-0000000000f2',
  medicationName: 'Amoxicillin 500 mg capsule',
  schedule: null,
  sig: { doseAmount: 1, doseUnit: 'capsule', route: 'oral', frequency: 'tid', durationDays: 10, asNeeded: false, asNeededReason: null },
  sigText: 'Take 1 capsule by mouth three times a day for 10 days.',
  updatedAt: '2026-11-28T10:00:00.000Z',
} as unknown as TPrescription;

describe('signing a prescription', () => {
  it('asks the reason for each high alert under its own field and sends nothing without it; then sends the overrides by check and subject', async () => {
    const api = fakeApi({
      [`GET /api/patients/${PATIENT_ID}`]: () => ({ status: 200, json: patient() }),
      'POST /api/prescriptions/check': () => ({ status: 200, json: { alerts: [ALLERGY, LOW] } }),
      [`POST /api/prescriptions/${RX_ID}/sign`]: () => ({ status: 200, json: { ...RX, status: 'signed' } }),
    });
    const { user } = renderApp(<SignPrescriptionDialog rx={RX} onClose={() => {}} />);
    await screen.findByText(/She is allergic to Penicillins/);
    // The check asked about this draft, leaving it (and what it renews) out of the duplicates.
    expect(api.requests.find((r) => r.path === '/api/prescriptions/check')!.body).toMatchObject({ patientId: PATIENT_ID, excludeId: RX_ID });
    // One reason field: the low alert is shown, not blocking.
    expect(screen.getAllByLabelText(/^Reason to sign over/)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Sign Over the Alert' }));
    expect(await screen.findByText('Give the reason you sign over this alert')).toBeTruthy();
    expect(api.writes().filter((r) => r.path.endsWith('/sign'))).toEqual([]);

    await user.type(screen.getByLabelText(/^Reason to sign over the allergy alert \(Penicillins\)/), 'Tolerated it in 2023 under observation');
    await user.click(screen.getByRole('button', { name: 'Sign Over the Alert' }));
    await waitFor(() => expect(api.writes().filter((r) => r.path.endsWith('/sign'))).toHaveLength(1));
    expect(api.writes().find((r) => r.path.endsWith('/sign'))!.body).toEqual({
      updatedAt: RX.updatedAt,
      overrides: [{ check: 'allergy', about: 'Penicillins', reason: 'Tolerated it in 2023 under observation' }],
    });
  });
});
