// Types only from domain/: its schemas would otherwise ride along into the chart's chunk.
import type { TAppointmentStatus } from '#domain/appointments';
import type { TNoteStatus } from '#domain/notes';

/** A series' colour as an SVG fill and as a legend swatch (Tailwind classes, so the theme holds). */
export interface TSeriesColour {
  fill: string;
  swatch: string;
}

/**
 * The appointment status badges' hues (components/appointments/status-badge.tsx: scheduled grey,
 * checked in yellow, in progress blue, completed green, cancelled and no-show red), deep enough
 * to read as bars. The badges share one red; a chart needs the two apart, so no-show is darker.
 */
export const APPOINTMENT_STATUS_COLOURS: Record<TAppointmentStatus, TSeriesColour> = {
  scheduled: { fill: 'fill-slate-400', swatch: 'bg-slate-400' },
  checked_in: { fill: 'fill-yellow-400', swatch: 'bg-yellow-400' },
  in_progress: { fill: 'fill-blue-600', swatch: 'bg-blue-600' },
  completed: { fill: 'fill-green-600', swatch: 'bg-green-600' },
  cancelled: { fill: 'fill-red-400', swatch: 'bg-red-400' },
  no_show: { fill: 'fill-red-800', swatch: 'bg-red-800' },
};

/** The note status badges' hues (pages/notes/note-status-badge.tsx, spec section 4). */
export const NOTE_STATUS_COLOURS: Record<TNoteStatus, TSeriesColour> = {
  draft: { fill: 'fill-slate-400', swatch: 'bg-slate-400' },
  submitted_to_scribe: { fill: 'fill-blue-600', swatch: 'bg-blue-600' },
  reviewed_by_scribe: { fill: 'fill-yellow-400', swatch: 'bg-yellow-400' },
  finalized: { fill: 'fill-green-600', swatch: 'bg-green-600' },
  submitted_to_admin: { fill: 'fill-purple-600', swatch: 'bg-purple-600' },
};

/**
 * A report chart's series, in the order the report lists them (pages/reports): the PDF draws
 * the same hues in the same order (server/modules/reports/report-pdf.ts), so a series keeps
 * its colour on paper. Past the last, the list starts again.
 */
export const SERIES_COLOURS: readonly TSeriesColour[] = [
  { fill: 'fill-blue-600', swatch: 'bg-blue-600' },
  { fill: 'fill-amber-500', swatch: 'bg-amber-500' },
  { fill: 'fill-emerald-500', swatch: 'bg-emerald-500' },
  { fill: 'fill-violet-500', swatch: 'bg-violet-500' },
  { fill: 'fill-red-500', swatch: 'bg-red-500' },
];

export const seriesColour = (index: number): TSeriesColour => SERIES_COLOURS[index % SERIES_COLOURS.length]!;
