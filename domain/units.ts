/**
 * The units a clinic enters and reads vital signs in (Settings, issue 51): metric (°C, kg, cm)
 * or US customary (°F, lb, in). What is stored is always the canonical unit.
 */
export const UNIT_SYSTEMS = ['metric', 'us'] as const;
export type TUnitSystem = (typeof UNIT_SYSTEMS)[number];
/** A clinic that has not chosen: what is stored, so nothing converts. */
export const DEFAULT_UNIT_SYSTEM: TUnitSystem = 'metric';
/** How Settings names each system: by the units it shows. */
export const UNIT_SYSTEM_LABELS: Record<TUnitSystem, string> = { metric: 'Metric (°C, kg, cm)', us: 'US customary (°F, lb, in)' };
