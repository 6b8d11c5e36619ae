import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TCurrentUser } from '#domain/auth';
import type { TLabTest } from '#domain/labs';
import { LabTestsTab } from '../../web/src/pages/admin/lab-tests-tab.tsx';
import { fakeApi } from './helpers/fake-api.ts';
import { renderApp } from './helpers/render.tsx';

// The Admin Panel's Lab Tests tab and its editor, driven by the keyboard and mouse; only fetch is faked.

const ADMIN: TCurrentUser = { id: '00000000-0000-4000-8000-000000000003', email: 'ada@clinic.example', firstName: 'Ada', lastName: 'Okafor', role: 'admin' };
const TSH: TLabTest = {
  id: '00000000-0000-4000-8000-0000000000c2',
  name: 'Thyroid stimulating hormone',
  loinc: '3016-3',
  isActive: true,
  updatedAt: '2026-01-01T00:00:00.123456Z',
  analytes: [
    {
      id: '00000000-0000-4000-8000-0000000000b9',
      name: 'TSH',
      loinc: '3016-3',
      unit: 'mIU/L',
      kind: 'numeric',
      ranges: [
        { sex: null, ageFrom: 18, ageTo: null, low: 0.4, high: 4, criticalLow: null, criticalHigh: null },
        { sex: null, ageFrom: 0, ageTo: 18, low: 0.7, high: 6, criticalLow: null, criticalHigh: null },
      ],
    },
  ],
};

const rangeRow = (index: number) => screen.getAllByTestId('range-fields')[index]!;

describe('the lab test editor', () => {
  it("sends the edited definition with its analyte's id and the version read; the server's refusal shows under the input it names", async () => {
    const api = fakeApi({
      'GET /api/lab-tests': () => ({ status: 200, json: [TSH] }),
      [`PUT /api/lab-tests/${TSH.id}`]: () => ({
        status: 400,
        json: { message: 'Validation failed', code: 'validation.failed', errors: [{ path: 'analytes.0.ranges.1.high', message: 'Too high for a child' }] },
      }),
    });
    const { user } = renderApp(<LabTestsTab user={ADMIN} />);
    await user.click(await screen.findByRole('button', { name: /^Edit/ }));
    await screen.findAllByTestId('range-fields');
    const childHigh = within(rangeRow(1)).getByLabelText('High');
    expect((childHigh as HTMLInputElement).value).toBe('6');
    await user.clear(childHigh);
    await user.type(childHigh, '5.5');
    await user.click(screen.getByRole('button', { name: 'Save Test' }));

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]!.body).toEqual({
      name: TSH.name,
      loinc: '3016-3',
      isActive: true,
      analytes: [
        {
          id: TSH.analytes[0]!.id,
          name: 'TSH',
          loinc: '3016-3',
          unit: 'mIU/L',
          kind: 'numeric',
          ranges: [
            { sex: null, ageFrom: 18, ageTo: null, low: 0.4, high: 4, criticalLow: null, criticalHigh: null },
            { sex: null, ageFrom: 0, ageTo: 18, low: 0.7, high: 5.5, criticalLow: null, criticalHigh: null },
          ],
        },
      ],
      updatedAt: TSH.updatedAt,
    });
    expect((await screen.findByTestId('analytes.0.ranges.1.high-error')).textContent).toBe('Too high for a child');
    expect(within(rangeRow(1)).getByLabelText('High').getAttribute('aria-invalid')).toBe('true');
    expect(within(rangeRow(0)).getByLabelText('High').getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByTestId('lab-test-form-error')).toBeNull();
  });

  it("checks the domain's rules before sending: limits in order, an age band that ends after it starts", async () => {
    const api = fakeApi({ 'GET /api/lab-tests': () => ({ status: 200, json: [TSH] }) });
    const { user } = renderApp(<LabTestsTab user={ADMIN} />);
    await user.click(await screen.findByRole('button', { name: /^Edit/ }));
    await screen.findAllByTestId('range-fields');
    await user.type(within(rangeRow(0)).getByLabelText('Critical high'), '3');
    await user.clear(within(rangeRow(1)).getByLabelText('Under age'));
    await user.type(within(rangeRow(1)).getByLabelText('Under age'), '0');
    await user.click(screen.getByRole('button', { name: 'Save Test' }));

    expect((await screen.findByTestId('analytes.0.ranges.0.criticalHigh-error')).textContent).toBe('Must not be below the high limit');
    expect(screen.getByTestId('analytes.0.ranges.1.ageTo-error').textContent).toBe('Must be above the age it starts at');
    expect(api.writes()).toEqual([]);
  });
});
