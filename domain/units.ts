/**
 * The units a clinic enters and reads vital signs in (Settings, issue 51): metric (°C, kg, cm)
 * or US customary (°F, lb, in). What is stored is always the canonical unit.
 */
export const UNIT_SYSTEMS = ['metric', 'us'] as const;
export type TUnitSystem = (typeof UNIT_SYSTEMS)[number];
