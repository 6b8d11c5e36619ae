import { describe, expect, it } from 'vitest';
import type { TLabFlag } from '#domain/lab-flags';
import { HL7_ABNORMAL_FLAGS, HL7_RESULT_STATUS, hl7Flag, placerNumberValue } from '#domain/lab-interfaces';
import { buildHl7Ack, escapeHl7 } from '../../server/modules/lab-interfaces/hl7-ack.ts';
import { loadHl7, readHl7Message, segmentsOf, unescapeHl7, type TReadMessage } from '../../server/modules/lab-interfaces/hl7-report.ts';

// How a lab's HL7 v2 ORU^R01 is read (issue 54): every abnormal flag and result status of HL7's
// tables written out by hand, every escape, each value type, and each way a message can be wrong,
// with the segment and field the acknowledgement will name.

const MSH = 'MSH|^~\\&|LAB|MAIN|EHR|CLINIC|20261128101500||ORU^R01|C1|P|2.5.1';
const PID = 'PID|1||11111111-2222-4333-8444-555555555555^^^CLINIC^MR||Hart^Olivia||19800517|F';
const OBR = 'OBR|1|L000042||24326-1^Electrolytes^LN';
const message = (...segments: string[]) => [MSH, PID, OBR, ...segments].join('\r');
const obx = (type: string, value: string, extra: { unit?: string; range?: string; flag?: string; status?: string } = {}) =>
  `OBX|1|${type}|2823-3^Potassium^LN||${value}|${extra.unit ?? ''}|${extra.range ?? ''}|${extra.flag ?? ''}|||${extra.status ?? 'F'}`;

async function report(text: string) {
  const read = await readHl7Message(text);
  if (read.kind !== 'report' || !read.report) throw new Error(`not a report: ${JSON.stringify(read)}`);
  return read.report;
}
const problemOf = async (text: string) => {
  const read: TReadMessage = await readHl7Message(text);
  return { kind: read.kind, at: read.problem && `${read.problem.segment}-${read.problem.field}#${read.problem.sequence}`, code: read.problem?.code };
};

describe('HL7 table 0078 (OBX-8) as the app’s flags', () => {
  // Written out independently of the table: what a clinician must be shown for each code.
  const EXPECTED: [string, TLabFlag | null][] = [
    ['N', 'N'],
    ['L', 'L'],
    ['H', 'H'],
    ['LL', 'LL'],
    ['HH', 'HH'],
    ['LU', 'L'],
    ['HU', 'H'],
    ['<', 'L'],
    ['>', 'H'],
    ['A', 'A'],
    ['AA', 'AA'],
    ['U', null],
    ['D', null],
    ['B', null],
    ['W', null],
    ['S', null],
    ['R', null],
    ['I', null],
    ['MS', null],
    ['VS', null],
    ['NEG', null],
    ['NR', null],
    ['ND', null],
    ['', null],
    // Not in the table: shown as abnormal, never as normal.
    ['POS', 'A'],
    ['RR', 'A'],
    ['DET', 'A'],
    ['QCF', 'A'],
    ['hh', 'HH'],
    [' l ', 'L'],
  ];
  it.each(EXPECTED)('%j is %j', (code, flag) => expect(hl7Flag(code)).toBe(flag));
  it('covers every code the table lists', () => {
    expect(Object.keys(HL7_ABNORMAL_FLAGS).filter((code) => !EXPECTED.some(([c]) => c === code))).toEqual([]);
  });
  it.each([
    ['H~HH~N', 'HH'],
    ['U~N', 'N'],
    ['N~U', 'N'],
    ['A~L', 'A'],
    ['U~D', null],
  ])('files the most severe of a repeating OBX-8: %j is %j', async (flags, flag) => {
    const { groups } = await report(message(obx('NM', '7.2', { flag: flags })));
    expect(groups[0]!.observations[0]!.labFlag).toBe(flag);
  });
});

describe('HL7 tables 0085 and 0123 (OBX-11, OBR-25) as the result status', () => {
  const EXPECTED: [string, string][] = [
    ['P', 'file preliminary'],
    ['R', 'file preliminary'],
    ['S', 'file preliminary'],
    ['A', 'file preliminary'],
    ['F', 'file final'],
    ['U', 'file final'],
    ['C', 'file corrected'],
    ['I', 'skip'],
    ['O', 'skip'],
    ['N', 'skip'],
    ['X', 'skip'],
    ['D', 'hold'],
    ['W', 'hold'],
  ];
  it.each(EXPECTED)('%s: %s', (code, expected) => {
    const rule = HL7_RESULT_STATUS[code]!;
    expect('file' in rule ? `file ${rule.file}` : 'skip' in rule ? 'skip' : 'hold').toBe(expected);
  });
  it('covers every status the table lists', () => expect(Object.keys(HL7_RESULT_STATUS).sort()).toEqual(EXPECTED.map(([c]) => c).sort()));
  it('takes OBR-25 when OBX-11 is empty, and final when both are', async () => {
    const withReport = [MSH, PID, 'OBR|1|L1||X^X^L|||||||||||||||||||||P', obx('NM', '1', { status: '' })].join('\r');
    expect((await report(withReport)).groups[0]!.observations[0]!.status).toEqual({ file: 'preliminary' });
    expect((await report(message(obx('NM', '1', { status: '' })))).groups[0]!.observations[0]!.status).toEqual({ file: 'final' });
  });
  it('holds a status outside the table (AE at OBX-11)', async () =>
    expect(await problemOf(message(obx('NM', '1', { status: 'Q' })))).toMatchObject({ at: 'OBX-11#1', code: '103' }));
});

describe('values by OBX-2', () => {
  const CASES: [string, string, { valueNumeric: number | null; valueText: string | null }][] = [
    ['NM', '5.4', { valueNumeric: 5.4, valueText: null }],
    ['NM', '-0.5', { valueNumeric: -0.5, valueText: null }],
    ['NM', '.5', { valueNumeric: 0.5, valueText: null }],
    ['SN', '^7.1', { valueNumeric: 7.1, valueText: null }],
    ['SN', '=^7.1', { valueNumeric: 7.1, valueText: null }],
    ['SN', '<^0.5', { valueNumeric: null, valueText: '<0.5' }],
    ['SN', '>=^10', { valueNumeric: null, valueText: '>=10' }],
    ['SN', '^1^:^128', { valueNumeric: null, valueText: '1:128' }],
    ['SN', '^2^-^4', { valueNumeric: null, valueText: '2-4' }],
    ['ST', 'Clear', { valueNumeric: null, valueText: 'Clear' }],
    ['TX', 'Line one~Line two', { valueNumeric: null, valueText: 'Line one\nLine two' }],
    ['FT', 'a\\.br\\b', { valueNumeric: null, valueText: 'a\nb' }],
    ['CE', 'POS^Positive^L', { valueNumeric: null, valueText: 'Positive' }],
    ['CWE', 'NEG^^L', { valueNumeric: null, valueText: 'NEG' }],
    ['CNE', 'Y^Yes^HL70136~N^No^HL70136', { valueNumeric: null, valueText: 'Yes, No' }],
    ['NM', '', { valueNumeric: null, valueText: null }],
  ];
  it.each(CASES)('%s %j', async (type, value, expected) => {
    expect((await report(message(obx(type, value)))).groups[0]!.observations[0]).toMatchObject(expected);
  });
  it.each([
    ['NM', 'high', 'OBX-5#1', '102'],
    ['NM', '5,4', 'OBX-5#1', '102'],
    ['SN', '<^x', 'OBX-5#1', '102'],
    ['ED', 'abc', 'OBX-2#1', '103'],
    ['', 'abc', 'OBX-2#1', '103'],
  ])('%s %j is held at %s (%s)', async (type, value, at, code) =>
    expect(await problemOf(message(obx(type, value)))).toMatchObject({ kind: 'report', at, code }),
  );
});

describe('ranges, units and identifiers', () => {
  it.each([
    ['3.5-5.1', { low: 3.5, high: 5.1 }],
    ['3.5 - 5.1', { low: 3.5, high: 5.1 }],
    ['-1-1', { low: -1, high: 1 }],
    ['<5', { low: null, high: 5 }],
    ['<=5', { low: null, high: 5 }],
    ['>10', { low: 10, high: null }],
    ['negative', null],
    ['', null],
  ])('OBX-7 %j', async (text, range) => expect((await report(message(obx('NM', '1', { range: text })))).groups[0]!.observations[0]!.range).toEqual(range));
  it('reads LOINC from the identifier or its alternate, and the unit’s code or text', async () => {
    const { groups } = await report(message('OBX|1|NM|K^Potassium^L^2823-3^Potassium^LN||4|^mmol/L|||||F', 'OBX|2|NM|2951-2^Sodium^LN||140|mmol/L|||||F'));
    expect(groups[0]!.observations.map((o) => [o.loinc, o.unit])).toEqual([
      ['2823-3', 'mmol/L'],
      ['2951-2', 'mmol/L'],
    ]);
  });
  it('reads every PID-3 repetition, the birth date, and each report’s placer number (ORC-2 or OBR-2)', async () => {
    const text = [
      MSH,
      'PID|1||X9^^^LAB~abc^^^CLINIC^MR||Hart^Olivia||198005171230|F',
      'ORC|RE|L7',
      'OBR|1|L7||X^Test A^L',
      obx('NM', '1'),
      'OBR|2|L8||Y^Test B^L',
      obx('NM', '2'),
    ].join('\r');
    const { patient, groups } = await report(text);
    expect(patient).toEqual({ identifiers: ['X9', 'abc'], birthDate: '1980-05-17', name: 'Olivia Hart' });
    expect(groups.map((g) => [g.placerNumber, g.testName])).toEqual([
      ['L7', 'Test A'],
      ['L8', 'Test B'],
    ]);
  });
  it.each([
    ['L000042', 42],
    ['l42', 42],
    ['42', 42],
    [' L000042 ', 42],
    ['LAB42', null],
    ['', null],
    ['L', null],
  ])('placer number %j is %j', (text, n) => expect(placerNumberValue(text)).toBe(n));
});

describe('escapes (\\F\\ \\S\\ \\T\\ \\R\\ \\E\\, line breaks, hex) both ways', () => {
  it.each([
    ['a\\F\\b', 'a|b'],
    ['a\\S\\b', 'a^b'],
    ['a\\T\\b', 'a&b'],
    ['a\\R\\b', 'a~b'],
    ['a\\E\\b', 'a\\b'],
    ['a\\.br\\b', 'a\nb'],
    ['a\\.sp2\\b', 'a\nb'],
    ['\\H\\bold\\N\\', 'bold'],
    ['\\X41\\', 'A'],
    ['a\\Z1\\b', 'a\\Z1\\b'],
    ['trailing\\', 'trailing\\'],
  ])('%j reads as %j', async (value, text) => expect((await report(message(obx('ST', value)))).groups[0]!.observations[0]!.valueText).toBe(text));
  it('writes text into a field with every separator escaped', () => expect(escapeHl7('a|b^c&d~e\\f\ng')).toBe('a\\F\\b\\S\\c\\T\\d\\R\\e\\E\\f\\.br\\g'));
});

describe("acknowledgements in the sender's encoding characters", () => {
  // A lab may choose its own (MSH-1 and MSH-2): here # fields, $ components, * repetitions, ! escape, @ subcomponents.
  const own = { fieldSeparator: '#', componentSeparator: '$', repetitionSeparator: '*', escapeCharacter: '!', subcomponentSeparator: '@' };
  const theirs = ['MSH#$*!@#LAB#MAIN#EHR#CLINIC#20261128101500##ORU$R01#C7#P#2.5.1', 'PID#1'].join('\r');
  const text = 'No patient | ^ & ~ \\ # $ * ! @ here\nat all';
  const read = async (ack: string) => (await loadHl7()).Hl7Message.parse(ack);

  it('escapes each of those characters with its own escape character', () =>
    expect(escapeHl7('a#b$c@d*e!f\ng|^&~\\', own)).toBe('a!F!b!S!c!T!d!R!e!E!f!.br!g|^&~\\'));

  it('answers with their separators: the message type, the error and its text read back as written', async () => {
    const ack = await read(await buildHl7Ack(theirs, 'AE', { segment: 'PID', sequence: 1, field: 3, code: '204', text }));
    expect(ack.context).toMatchObject(own);
    const field = (segment: string, n: number) => ack.getSegment(segment)!.getField(n);
    expect(field('MSH', 9).components[0]).toEqual(['ACK', 'R01']);
    expect([field('MSA', 1).toString(), field('MSA', 2).toString()]).toEqual(['AE', 'C7']);
    expect(field('ERR', 2).components[0]).toEqual(['PID', '1', '3']);
    expect(field('ERR', 3).components[0]).toEqual(['204', 'Unknown key identifier', 'HL70357']);
    expect(unescapeHl7(field('ERR', 8).toString(), ack.context)).toBe(text);
    expect(unescapeHl7(field('MSA', 3).toString(), ack.context)).toBe(text);
  });

  it("cuts a long text to MSA-3's 80 characters between escapes, never inside one", async () => {
    const ack = await read(await buildHl7Ack(theirs, 'AE', { segment: 'PID', sequence: 1, field: 3, code: '204', text: 'x#'.repeat(60) }));
    const msa3 = ack.getSegment('MSA')!.getField(3).toString();
    expect(msa3.length).toBeLessThanOrEqual(80);
    expect(msa3).toMatch(/^(x!F!)+x?$/);
  });
});

describe('messages refused or held, with where', () => {
  it.each([
    ['no MSH', 'PID|1', 'refused', 'MSH-2#1'],
    ['wrong encoding characters', 'MSH|^^\\&|LAB', 'refused', 'MSH-2#1'],
    ['letters as encoding characters', 'MSH|abcd|LAB', 'refused', 'MSH-2#1'],
    ['an unknown type', MSH.replace('ORU^R01', 'ADT^A01'), 'refused', 'MSH-9#1'],
    ['another event', MSH.replace('ORU^R01', 'ORU^R30'), 'refused', 'MSH-9#1'],
    ['a version not taken', MSH.replace('2.5.1', '2.8'), 'refused', 'MSH-12#1'],
    ['no control id', MSH.replace('|C1|', '||'), 'refused', 'MSH-10#1'],
    ['no PID', [MSH, OBR].join('\r'), 'report', 'PID-3#1'],
    ['two patients', [MSH, PID, PID, OBR].join('\r'), 'report', 'PID-3#2'],
    ['an invalid birth date', [MSH, PID.replace('19800517', '19801340'), OBR].join('\r'), 'report', 'PID-7#1'],
    ['a birth date that is not a date', [MSH, PID.replace('19800517', 'yesterday'), OBR].join('\r'), 'report', 'PID-7#1'],
    ['an invalid observation time', message('OBX|1|NM|X^X^L||1||||||F|||20261131'), 'report', 'OBX-14#1'],
    ['no OBR', [MSH, PID].join('\r'), 'report', 'OBR-4#1'],
    ['an OBX before any OBR', [MSH, PID, obx('NM', '1'), OBR].join('\r'), 'report', 'OBX-1#1'],
    ['ORC-2 and OBR-2 disagreeing', [MSH, PID, 'ORC|RE|L1', 'OBR|1|L2||X^X^L'].join('\r'), 'report', 'OBR-2#1'],
    ['more results than a message files', message(...Array.from({ length: 201 }, (_, i) => obx('NM', String(i)))), 'report', 'OBX-1#201'],
  ])('%s', async (_name, text, kind, at) => expect(await problemOf(text)).toMatchObject({ kind, at }));

  it('reads a message with LF or CR LF between segments, a Z-segment, and fields left out', async () => {
    const text = [MSH, PID, OBR, 'ZXX|anything|at all', 'OBX|1|NM|X^X^L||1'].join('\r\n');
    expect((await report(text)).groups[0]!.observations).toHaveLength(1);
  });

  it('shows a message as segments with HL7’s field numbers (MSH-1 is the separator)', () => {
    const { segments } = segmentsOf(message(obx('NM', '5.4')));
    expect(segments[0]!.fields.slice(0, 3)).toEqual([
      { n: 1, value: '|' },
      { n: 2, value: '^~\\&' },
      { n: 3, value: 'LAB' },
    ]);
    expect(segments.find((s) => s.name === 'OBX')!.fields.find((f) => f.n === 5)).toEqual({ n: 5, value: '5.4' });
  });
});
