import { eq } from 'drizzle-orm';
import { VITAL_SIGNS, ZVitalsInput, type TVitalsInput, type TVitalsSet } from '#domain/vital-signs';
import { appointments } from '../../db/schema/clinical.ts';
import { vitalSigns } from '../../db/schema/chart.ts';
import { invalid } from '../../http/errors.ts';
import { lockVitals, vitalsOf } from './chart.queries.ts';
import type { TChartListDef } from './chart-entries.ts';

/** A clock a few minutes fast on the nurse's tablet is not a set taken in the future. */
const CLOCK_SLACK_MS = 5 * 60_000;

/**
 * Vital signs: a set taken at one time (at a visit or on its own), every value in its canonical
 * unit (domain/vital-signs.ts). Its values are not edited: a set taken or typed wrong is marked
 * entered in error and a new one recorded, so a trend never shows a value nobody measured.
 */
export const VITALS_LIST: TChartListDef<typeof vitalSigns, TVitalsSet, TVitalsInput> = {
  list: 'vitals',
  table: vitalSigns,
  fields: ZVitalsInput,
  // Stored values are canonical, read back as metric.
  inputOf: (v) => ({
    takenAt: v.takenAt,
    appointmentId: v.appointmentId,
    unitSystem: 'metric',
    status: v.status,
    note: v.note,
    ...Object.fromEntries(VITAL_SIGNS.map((sign) => [sign, v.values[sign] ?? null])),
  }),
  inError: (v) => v.status === 'entered_in_error',
  read: vitalsOf,
  lock: lockVitals,
  columns: async (tx, fields, { before, patientId, now }) => {
    const takenAt = fields.takenAt ? new Date(fields.takenAt) : before ? new Date(before.takenAt) : now;
    if (takenAt.getTime() > now.getTime() + CLOCK_SLACK_MS) throw invalid('takenAt', 'Cannot be in the future');
    if (fields.appointmentId && fields.appointmentId !== before?.appointmentId) {
      const [visit] = await tx.select({ patientId: appointments.patientId }).from(appointments).where(eq(appointments.id, fields.appointmentId));
      if (visit?.patientId !== patientId) throw invalid('appointmentId', "Not one of this patient's appointments");
    }
    return { takenAt, appointmentId: fields.appointmentId, status: fields.status, note: fields.note, ...fields.values };
  },
};
