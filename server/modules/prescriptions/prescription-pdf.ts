import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { addDays, formatClinicTime, formatLongDay, zonedDate } from '#domain/clinic-time';
import type { TPrescription } from '#domain/prescriptions';
import { quantityInWords } from '#domain/quantity-words';
import { unitWords } from '#domain/sig';

const MARGIN = 56;
const INK = '#0f172a';
const MUTED = '#475569';
/** A printed prescription is honoured for this long after it is signed (the clinic's rule; a state's may be shorter). */
export const VOID_AFTER_DAYS = 30;

export interface TPrintedPrescription {
  rx: TPrescription;
  prescriber: { name: string; licenseNumber: string; licenseState: string; npi: string; deaNumber: string | null };
  patient: { name: string; dateOfBirth: string | null; address: string | null };
  clinic: { name: string; timeZone: string };
  printedAt: Date;
  /** 0 for the original; a reprint is marked as the copy it is. */
  copy: number;
}

/**
 * The check line: the first 12 hex digits of SHA-256 over what a pharmacist acts on (the number,
 * patient, drug, sig, quantity, refills, date signed, prescriber's NPI). A clinic reading it back
 * to a pharmacist who calls confirms the paper is the prescription on record; a figure changed on
 * the paper no longer matches.
 */
export function checkLineOf(p: TPrintedPrescription): string {
  const { rx } = p;
  const content = [rx.number, rx.patientId, rx.formularyId, rx.sigText, rx.quantity, rx.quantityUnit, rx.refills, rx.signedAt, p.prescriber.npi].join('|');
  const digest = createHash('sha256').update(content).digest('hex').slice(0, 12).toUpperCase();
  return `${digest.slice(0, 4)}-${digest.slice(4, 8)}-${digest.slice(8)}`;
}

/**
 * A signed prescription as paper (issue 52; docs/decisions/prescriptions.md): the clinic, the
 * prescriber with her license and NPI (her DEA number for a controlled substance only), the
 * patient, the drug, the sig, the quantity in words and figures, refills, substitution, the date,
 * the unique number with its check line, and the day it is void after. A reprint says COPY across
 * it. Standard fonts only: the text stays extractable, and the tests read it back.
 */
export function renderPrescriptionPdf(p: TPrintedPrescription): Readable {
  const { rx, prescriber, patient, clinic } = p;
  const doc = new PDFDocument({ size: 'LETTER', margin: MARGIN, info: { Title: `Prescription ${rx.number}`, Author: clinic.name } });
  const signed = new Date(rx.signedAt!);
  const voidAfter = formatLongDay(addDays(zonedDate(signed, clinic.timeZone), VOID_AFTER_DAYS));

  if (p.copy > 0) doc.fillColor('#b91c1c').font('Helvetica-Bold').fontSize(14).text(`COPY ${p.copy}: NOT AN ORIGINAL PRESCRIPTION`, { align: 'center' });
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(18).text(clinic.name);
  doc.font('Helvetica').fontSize(10).fillColor(MUTED).text(`Prescription ${rx.number}`);
  doc.moveDown();

  block(doc, 'Prescriber', [
    prescriber.name,
    `License ${prescriber.licenseNumber} (${prescriber.licenseState})   NPI ${prescriber.npi}`,
    ...(rx.schedule && prescriber.deaNumber ? [`DEA ${prescriber.deaNumber}`] : []),
  ]);
  block(doc, 'Patient', [patient.name, `Date of birth ${patient.dateOfBirth ?? 'not recorded'}`, patient.address ?? 'Address not recorded']);
  block(doc, 'Rx', [
    `${rx.medicationName}${rx.schedule ? `   (Schedule ${rx.schedule} controlled substance)` : ''}`,
    `Sig: ${rx.sigText}`,
    `Dispense: ${rx.quantity} ${unitWords(rx.quantity, rx.quantityUnit)} (${quantityInWords(rx.quantity)})`,
    `Refills: ${rx.refills} (${quantityInWords(rx.refills)})`,
    rx.substitutionAllowed ? 'Substitution permitted' : 'Dispense as written: no substitution',
    ...(rx.diagnosis ? [`For: ${rx.diagnosis.name}${rx.diagnosis.code ? ` (${rx.diagnosis.code})` : ''}`] : []),
    ...(rx.pharmacyNote ? [`Note to pharmacy: ${rx.pharmacyNote}`] : []),
  ]);
  block(doc, 'Signed', [`${prescriber.name}, ${formatClinicTime(signed, clinic.timeZone, 'day')}`, `Void after ${voidAfter}`]);
  doc.moveDown();
  doc
    .font('Courier')
    .fontSize(10)
    .fillColor(INK)
    .text(`${rx.number}   Check ${checkLineOf(p)}`);
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor(MUTED)
    .text(`Printed ${formatClinicTime(p.printedAt, clinic.timeZone)} (${clinic.timeZone}).`);
  doc.end();
  return doc;
}

function block(doc: InstanceType<typeof PDFDocument>, title: string, lines: string[]) {
  doc.font('Helvetica-Bold').fontSize(11).fillColor(INK).text(title);
  doc.font('Helvetica').fontSize(11);
  for (const text of lines) doc.text(text);
  doc.moveDown(0.6);
}

/**
 * How a signed prescription leaves the clinic: a driver delivers it, and the first delivery
 * makes it active. Printing is the one driver. Electronic transmission to a pharmacy (NCPDP
 * SCRIPT through a commercial network) is out of scope; it would be a second driver of this shape,
 * delivering to the network and answering its message id instead of paper.
 */
export interface TSendDriver<R> {
  readonly via: 'print';
  deliver(printed: TPrintedPrescription): R;
}

export const PRINT_DRIVER: TSendDriver<Readable> = { via: 'print', deliver: renderPrescriptionPdf };
