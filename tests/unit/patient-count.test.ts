import { describe, expect, it } from 'vitest';
import { PATIENT_PAGE } from '#domain/patients';
import { patientCountText } from '../../web/src/lib/patient-count.ts';

describe('the patients screen count line', () => {
  it('says how many patients, in the singular for one', () => {
    expect(patientCountText({ total: 0, capped: false }, '')).toBe('0 patients');
    expect(patientCountText({ total: 1, capped: false }, '')).toBe('1 patient');
    expect(patientCountText({ total: 16, capped: false }, '')).toBe('16 patients');
  });

  it('names the search term in curly quotes, as typed', () => {
    expect(patientCountText({ total: 1, capped: false }, 'hART')).toBe('1 patient matching “hART”');
    expect(patientCountText({ total: 3, capped: false }, 'n.mensah@exa')).toBe('3 patients matching “n.mensah@exa”');
  });

  it('groups thousands with commas', () => {
    expect(patientCountText({ total: 999, capped: false }, 'smith')).toBe('999 patients matching “smith”');
    expect(patientCountText({ total: 1234, capped: false }, 'smith')).toBe('1,234 patients matching “smith”');
    expect(patientCountText({ total: 1_000_000, capped: false }, '')).toBe('1,000,000 patients');
  });

  it("shows a capped total as '1,000+', even a cap of one", () => {
    expect(patientCountText({ total: PATIENT_PAGE.totalCap, capped: true }, 'smith')).toBe('1,000+ patients matching “smith”');
    expect(patientCountText({ total: 1, capped: true }, 'a')).toBe('1+ patients matching “a”');
    expect(patientCountText({ total: 1000, capped: true }, '')).toBe('1,000+ patients');
  });
});
