import { useEffect, useRef } from 'react';
import type { TLabResult } from '#domain/labs';
import { useLabTrend, type TLabTrendPoint } from '../../api/labs/lab-trend.ts';
import { formatDate } from '#domain/clinic-time';
import { TrendSection } from '../../components/trend/trend-section.tsx';
import { FLAG_WORDS, flagTone, formatNumber, formatReference } from './lab-format.ts';

interface TTrendProps {
  orderId: string;
  analyteId: string;
  name: string;
  unit: string | null;
  /** The reference range of this order's result, drawn as a band. */
  range: TLabResult['range'];
  timeZone: string;
}

/**
 * One analyte's values for the order's patient over time (the latest 50), as a small line with
 * the reference band; critical points red, abnormal amber. The figures follow as a table for
 * screen readers. Fewer than two values make no trend, and it says so.
 */
export function LabTrendChart({ orderId, analyteId, name, unit, range, timeZone }: TTrendProps) {
  const query = useLabTrend(orderId, analyteId);
  const section = useRef<HTMLElement>(null);
  // Asked for under the results: brought into view in the scrolling dialog. (Braces: a browser's
  // scrollIntoView may answer a promise, which React would take for the effect's cleanup.)
  useEffect(() => {
    section.current?.scrollIntoView({ block: 'nearest' });
  }, [analyteId, query.data]);
  const shown = (p: TLabTrendPoint) => `${formatNumber(p.value)}${unit ? ` ${unit}` : ''}${p.flag ? ` (${p.flag}, ${FLAG_WORDS[p.flag].toLowerCase()})` : ''}`;
  return (
    <TrendSection
      name={name}
      unit={unit ? ` (${unit})` : ''}
      query={query}
      fewer={{ none: `No earlier ${name} results for this patient.`, one: `This is the only ${name} result for this patient so far: a trend needs two.` }}
      figure={() => {
        const points = query.data!;
        const reference = formatReference(range);
        return {
          summary: `${points.length} results from ${formatDate(points[0]!.at, timeZone)} to ${formatDate(points.at(-1)!.at, timeZone)}: first ${shown(points[0]!)}, latest ${shown(points.at(-1)!)}${reference ? `; reference range ${reference}` : ''}.`,
          points: points.map((p) => ({
            key: `${p.orderId}-${p.at}`,
            at: p.at,
            value: p.value,
            tone: p.flag ? flagTone(p.flag) : 'normal',
            flag: p.flag,
            text: shown(p),
          })),
          band: range,
        };
      }}
      timeZone={timeZone}
      testId="lab-trend"
      sectionRef={section}
    />
  );
}
