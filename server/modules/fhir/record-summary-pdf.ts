import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { AllergyIntolerance, Appointment, Condition, DocumentReference, MedicationRequest, Observation, Patient, Resource } from '@medplum/fhirtypes';
import { formatClinicTime } from '#domain/clinic-time';
import type { TEverything } from './fhir-everything.ts';

const MARGIN = 50;
const INK = '#0f172a';
const MUTED = '#475569';
type TDoc = InstanceType<typeof PDFDocument>;

/**
 * A patient's record as a readable summary (issue 35): demographics, allergies, appointments,
 * finalized notes and lab results. Written from the same resources as the FHIR export of the
 * same moment, so the PDF and the Bundle a patient receives never disagree. Standard fonts only
 * (nothing embedded; the text stays extractable, and the tests read it back).
 */
export function renderRecordSummaryPdf(record: TEverything, context: { clinic: string; timeZone: string; printedAt: Date }): Readable {
  const patient = record.patient as Patient;
  const name = patient.name?.[0]?.text ?? 'Patient';
  const doc = new PDFDocument({ size: 'LETTER', margin: MARGIN, info: { Title: `Health record of ${name}`, Author: context.clinic } });
  const when = (instant: string | undefined) => (instant ? formatClinicTime(instant, context.timeZone) : '—');
  const of = <T extends Resource>(type: T['resourceType']) => record.resources.filter((r): r is T => r.resourceType === type);

  doc.fillColor(INK).font('Helvetica-Bold').fontSize(18).text(`Health record: ${name}`);
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(MUTED)
    .text(`${context.clinic}. Printed ${formatClinicTime(context.printedAt, context.timeZone)} (${context.timeZone}). Record number ${patient.id}.`);
  patientSection(doc, patient);
  chartSection(doc, {
    allergies: of<AllergyIntolerance>('AllergyIntolerance'),
    problems: of<Condition>('Condition'),
    medications: of<MedicationRequest>('MedicationRequest'),
  });
  appointmentsSection(doc, of<Appointment>('Appointment'), when);
  notesSection(
    doc,
    of<DocumentReference>('DocumentReference').filter((d) => d.status === 'current'),
    when,
  );
  const observations = of<Observation>('Observation');
  const isVital = (o: Observation) => o.category?.some((c) => c.coding?.some((k) => k.code === 'vital-signs')) ?? false;
  resultsSection(
    doc,
    observations.filter((o) => !isVital(o)),
    when,
  );
  vitalsSection(
    doc,
    observations.filter((o) => isVital(o) && o.status !== 'entered-in-error'),
    when,
  );
  doc.end();
  return doc;
}

type TWhen = (instant: string | undefined) => string;

function patientSection(doc: TDoc, patient: Patient) {
  heading(doc, 'Patient');
  const phone = patient.telecom?.find((t) => t.system === 'phone')?.value;
  const email = patient.telecom?.find((t) => t.system === 'email')?.value;
  line(doc, 'Date of birth', patient.birthDate ?? '—');
  line(doc, 'Sex', patient.gender ?? '—');
  if (phone) line(doc, 'Phone', phone);
  if (email) line(doc, 'Email', email);
  if (patient.address?.[0]?.text) line(doc, 'Address', patient.address[0].text);
  const contact = patient.contact?.[0];
  if (contact) line(doc, 'Emergency contact', [contact.name?.text, contact.telecom?.[0]?.value].filter(Boolean).join(', '));
}

function appointmentsSection(doc: TDoc, appointments: Appointment[], when: TWhen) {
  heading(doc, `Appointments (${appointments.length})`);
  for (const a of appointments) {
    const reason = a.reasonCode?.[0]?.text ? `: ${a.reasonCode[0].text}` : '';
    body(doc, `${when(a.start)}  ${a.appointmentType?.text ?? 'Visit'}, ${a.status}${reason}`);
  }
}

function notesSection(doc: TDoc, notes: DocumentReference[], when: TWhen) {
  heading(doc, `Clinical notes (${notes.length})`);
  for (const n of notes) {
    doc
      .moveDown(0.3)
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor(INK)
      .text(`${n.type?.text ?? 'Note'}, ${when(n.date)}${n.docStatus === 'amended' ? ' (amended)' : ''}`);
    body(doc, Buffer.from(n.content[0]?.attachment.data ?? '', 'base64').toString('utf8'));
  }
}

const inError = (r: { verificationStatus?: { coding?: { code?: string }[] } }) => r.verificationStatus?.coding?.[0]?.code === 'entered-in-error';

/** The chart's lists as they stand (issue 51): what was entered in error is left out. */
function chartSection(doc: TDoc, chart: { allergies: AllergyIntolerance[]; problems: Condition[]; medications: MedicationRequest[] }) {
  heading(doc, 'Allergies');
  const allergies = chart.allergies.filter((a) => !inError(a) && a.clinicalStatus?.coding?.[0]?.code === 'active');
  const allergyText = (a: AllergyIntolerance) =>
    `${a.code?.text ?? ''}${a.criticality === 'high' ? ' (high criticality)' : ''}${a.reaction?.length ? `: ${a.reaction.flatMap((r) => r.manifestation.map((m) => m.text)).join(', ')}` : ''}`;
  body(doc, allergies.length ? allergies.map(allergyText).join('; ') : 'Not recorded.');
  heading(doc, 'Problems');
  const problems = chart.problems.filter((p) => !inError(p));
  body(doc, problems.length ? problems.map((p) => `${p.code?.text ?? ''} (${p.clinicalStatus?.coding?.[0]?.code ?? ''})`).join('; ') : 'None recorded.');
  heading(doc, 'Medications');
  const medications = chart.medications.filter((m) => m.status === 'active' || m.status === 'on-hold');
  body(
    doc,
    medications.length
      ? medications
          .map((m) => `${m.medicationCodeableConcept?.text ?? ''}${m.dosageInstruction?.[0]?.text ? `, ${m.dosageInstruction[0].text}` : ''}`)
          .join('; ')
      : 'None recorded.',
  );
}

function vitalsSection(doc: TDoc, vitals: Observation[], when: TWhen) {
  heading(doc, `Vital signs (${vitals.length})`);
  for (const o of vitals) {
    const value = o.component
      ? o.component.map((c) => c.valueQuantity?.value ?? '—').join('/') + ' mmHg'
      : `${o.valueQuantity?.value ?? ''} ${o.valueQuantity?.unit ?? ''}`.trim();
    body(doc, `${when(o.effectiveDateTime)}  ${o.code.text}: ${value}`);
  }
}

function resultsSection(doc: TDoc, results: Observation[], when: TWhen) {
  heading(doc, `Lab results (${results.length})`);
  for (const o of results) {
    const value = o.valueQuantity ? `${o.valueQuantity.value} ${o.valueQuantity.unit ?? ''}`.trim() : (o.valueString ?? '—');
    const range = o.referenceRange?.[0];
    const ref = range ? ` (range ${range.low?.value ?? ''}–${range.high?.value ?? ''})` : '';
    const flag = o.interpretation?.[0]?.coding?.[0]?.display;
    body(doc, `${when(o.effectiveDateTime)}  ${o.code.text}: ${value}${ref}${flag && flag !== 'Normal' ? `, ${flag}` : ''}`);
  }
}

function heading(doc: TDoc, text: string) {
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).fillColor(INK).text(text);
}
function line(doc: TDoc, label: string, value: string) {
  doc.font('Helvetica-Bold').fontSize(10).fillColor(INK).text(`${label}: `, { continued: true }).font('Helvetica').text(value);
}
function body(doc: TDoc, text: string) {
  doc.font('Helvetica').fontSize(10).fillColor(INK).text(text);
}
