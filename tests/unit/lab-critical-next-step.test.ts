import { describe, expect, it } from 'vitest';
import { criticalNextStep } from '../../web/src/pages/lab-orders/lab-format.ts';

// Issue 50: the toast after a critical value says what happens, for whoever saved it.
describe('criticalNextStep', () => {
  const NORA = '00000000-0000-4000-8000-00000000000a';
  const order = { providerId: NORA, providerName: 'Nora Bennett' };

  it('tells the ordering provider who entered her own result to acknowledge it: no notice goes to her', () => {
    expect(criticalNextStep(order, NORA)).toBe('Acknowledge it in the alert on the order: if nobody acknowledges it in time, the admins are told.');
  });

  it('names the ordering provider to anyone else, and the escalation to the admins', () => {
    expect(criticalNextStep(order, '00000000-0000-4000-8000-00000000000b')).toBe(
      'Nora Bennett is alerted; if nobody acknowledges it in time, the admins are told.',
    );
    expect(criticalNextStep({ providerId: null, providerName: null }, NORA)).toBe(
      'The ordering provider is alerted; if nobody acknowledges it in time, the admins are told.',
    );
  });
});
