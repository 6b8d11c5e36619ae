import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { appointmentTypeLabel } from '#domain/appointment-labels';
import { formatReportValue } from '#domain/report-format';
import type { TReport, TReportColumn } from '#domain/reports';

const MARGIN = 40;
const INK = '#0f172a';
const MUTED = '#475569';
/** The screen's chart colours, in series order (web/src/components/charts/chart-colors.ts keeps the same hues). */
const SERIES_COLOURS = ['#2563eb', '#f59e0b', '#10b981', '#8b5cf6', '#ef4444'];

type TDoc = InstanceType<typeof PDFDocument>;

/**
 * A report as a PDF (issue 34; docs/decisions/reports.md says why pdfkit): the same table the
 * screen shows, written with the same formatter, so a figure reads the same on paper. Standard
 * fonts only: nothing to embed, and the text stays extractable (the tests read it back).
 */
export function renderReportPdf(report: TReport, context: { clinic: string; printedOn: string; providerName?: string | null }): Readable {
  const doc = new PDFDocument({
    size: 'LETTER',
    layout: 'landscape',
    margin: MARGIN,
    info: { Title: `${report.title} ${report.query.from} to ${report.query.to}`, Author: context.clinic },
  });
  const width = doc.page.width - 2 * MARGIN;

  doc.fillColor(INK).font('Helvetica-Bold').fontSize(18).text(report.title);
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(MUTED)
    .text(`${context.clinic}. Clinic days ${report.query.from} to ${report.query.to} (${report.timeZone}). Printed ${context.printedOn}.`);
  const filters = [
    context.providerName ? `Provider: ${context.providerName}` : null,
    report.query.appointmentType
      ? `Appointment type: ${appointmentTypeLabel(report.query.appointmentType === 'general' ? null : report.query.appointmentType)}`
      : null,
    `Grouped by ${report.query.groupBy}`,
  ].filter(Boolean);
  doc.text(filters.join('. ') + '.');
  doc.moveDown(0.5).fillColor(INK).fontSize(11).text(report.description);

  doc.moveDown(0.8);
  for (const m of report.metrics) {
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .fillColor(INK)
      .text(`${m.label}: ${formatReportValue(m.value, m.kind)}`, { continued: false });
    if (m.definition) doc.font('Helvetica').fontSize(9).fillColor(MUTED).text(m.definition);
  }

  drawChart(doc, report, width);
  drawTable(doc, report, width);

  doc.moveDown(1).font('Helvetica-Bold').fontSize(11).fillColor(INK).text('Definitions');
  for (const c of report.columns.filter((col) => col.definition)) {
    doc.font('Helvetica-Bold').fontSize(9).fillColor(INK).text(`${c.label}: `, { continued: true }).font('Helvetica').fillColor(MUTED).text(c.definition!);
  }
  for (const caveat of report.caveats) doc.moveDown(0.3).font('Helvetica-Oblique').fontSize(9).fillColor(MUTED).text(caveat);
  doc.end();
  return doc;
}

/** Bars per row for the chart's series of one kind, as the screen draws them; the table holds the figures. */
function drawChart(doc: TDoc, report: TReport, width: number) {
  const byKey = new Map(report.columns.map((c) => [c.key, c]));
  const first = byKey.get(report.chart.series[0] ?? '');
  const series = report.chart.series.map((k) => byKey.get(k)!).filter((c) => c && c.kind === first?.kind);
  const values = report.rows.flatMap((row) => series.map((s) => (typeof row[s.key] === 'number' ? (row[s.key] as number) : 0)));
  const max = Math.max(0, ...values);
  if (series.length === 0 || report.rows.length === 0 || max === 0) return;

  const height = 140;
  ensureRoom(doc, height + 40);
  doc.moveDown(0.8);
  const top = doc.y;
  const left = doc.page.margins.left;
  const groupWidth = width / report.rows.length;
  const barWidth = Math.max(1, (groupWidth * 0.8) / series.length);
  report.rows.forEach((row, i) => {
    series.forEach((s, j) => {
      const value = typeof row[s.key] === 'number' ? (row[s.key] as number) : 0;
      const h = (value / max) * height;
      doc.rect(left + i * groupWidth + groupWidth * 0.1 + j * barWidth, top + height - h, barWidth, h).fill(SERIES_COLOURS[j % SERIES_COLOURS.length]!);
    });
  });
  doc
    .moveTo(left, top + height)
    .lineTo(left + width, top + height)
    .strokeColor(MUTED)
    .stroke();
  let x = left;
  const legendY = top + height + 6;
  series.forEach((s, j) => {
    doc.rect(x, legendY + 2, 8, 8).fill(SERIES_COLOURS[j % SERIES_COLOURS.length]!);
    doc
      .fillColor(INK)
      .font('Helvetica')
      .fontSize(9)
      .text(s.label, x + 12, legendY, { lineBreak: false });
    x += 12 + doc.widthOfString(s.label) + 16;
  });
  doc.text(`Highest bar: ${formatReportValue(max, first!.kind)}`, left, legendY + 14, { width });
  doc.x = left;
}

/** The table, its header repeated on every page it runs onto. */
function drawTable(doc: TDoc, report: TReport, width: number) {
  const left = doc.page.margins.left;
  const cols = report.columns;
  const firstWidth = Math.min(200, width * 0.28);
  const otherWidth = cols.length > 1 ? (width - firstWidth) / (cols.length - 1) : 0;
  const widths = cols.map((_, i) => (i === 0 ? firstWidth : otherWidth));
  const fontSize = cols.length > 8 ? 8 : 9;
  const rowHeight = fontSize + 8;

  const line = (cells: string[], bold: boolean) => {
    const heights = cells.map((text, i) =>
      doc
        .font(bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(fontSize)
        .heightOfString(text, { width: widths[i]! - 6 }),
    );
    const h = Math.max(rowHeight, ...heights.map((x) => x + 6));
    if (doc.y + h > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      if (!bold) header();
    }
    const y = doc.y;
    let x = left;
    cells.forEach((text, i) => {
      doc
        .font(bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(fontSize)
        .fillColor(INK)
        .text(text, x + 3, y + 3, { width: widths[i]! - 6, align: i === 0 ? 'left' : 'right' });
      x += widths[i]!;
    });
    doc
      .moveTo(left, y + h)
      .lineTo(left + width, y + h)
      .strokeColor('#cbd5e1')
      .stroke();
    doc.x = left;
    doc.y = y + h;
  };
  const header = () =>
    line(
      cols.map((c) => c.label),
      true,
    );

  doc.moveDown(1.5);
  doc.x = left;
  header();
  for (const row of report.rows)
    line(
      cols.map((c: TReportColumn) => formatReportValue(row[c.key] ?? null, c.kind)),
      false,
    );
  if (report.rows.length === 0)
    doc
      .font('Helvetica')
      .fontSize(10)
      .fillColor(MUTED)
      .text('No data for these dates.', left, doc.y + 4);
}

function ensureRoom(doc: TDoc, height: number) {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}
