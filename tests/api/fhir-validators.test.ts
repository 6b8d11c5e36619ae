import { describe, expect, it } from 'vitest';
import type { Bundle, CapabilityStatement, Observation, Patient, Resource } from '@medplum/fhirtypes';
import { fhirErrors, r4SchemaErrors } from '../helpers/fhir-validator.ts';

// The second judge of our FHIR output, HL7's R4 JSON schema (tests/helpers/fhir-validator.ts),
// refuses what it should, so its pass on every resource the FHIR tests return means something;
// and takes what R4 4.0.1 allows where the schema file (4.0.0's) was corrected for it.

/** A Patient every judge takes: US Core's identifier, name and gender included. */
const patient = (): Patient => ({
  resourceType: 'Patient',
  id: 'p1',
  meta: { lastUpdated: '2026-10-14T15:05:00.000Z' },
  identifier: [{ system: 'urn:ietf:rfc:3986', value: 'urn:uuid:8b1e6f36-4ab0-4a6b-9d59-43c1b2f0c0a1' }],
  active: true,
  name: [{ family: 'Lee', given: ['Ann'] }],
  gender: 'female',
  birthDate: '1981-05-17',
});
/** The Patient with one thing changed. */
const broken = (change: (p: Record<string, unknown>) => void) => {
  const p = patient() as unknown as Record<string, unknown>;
  change(p);
  return p as unknown as Resource;
};

describe("HL7's R4 JSON schema, the second judge", () => {
  it('takes a valid Patient, and the whole of fhirErrors does too', () => {
    expect(r4SchemaErrors(patient())).toEqual([]);
    expect(fhirErrors(patient())).toEqual([]);
  });

  it.each([
    [
      'a code that is a number',
      (p: Record<string, unknown>) => (p.gender = 7),
      'must be equal to one of the allowed values (male, female, other, unknown) at /gender',
    ],
    [
      'a code outside its required value set',
      (p: Record<string, unknown>) => (p.gender = 'f'),
      'must be equal to one of the allowed values (male, female, other, unknown) at /gender',
    ],
    ['a boolean that is a string', (p: Record<string, unknown>) => (p.active = 'true'), 'must be boolean at /active'],
    ['a property R4 does not have', (p: Record<string, unknown>) => (p.sex = 'female'), 'must NOT have additional properties (sex) at /'],
    ['one value where R4 has a list', (p: Record<string, unknown>) => (p.name = { family: 'Lee' }), 'must be array at /name'],
    ['a list where R4 has one value', (p: Record<string, unknown>) => (p.birthDate = ['1981-05-17']), 'must be string at /birthDate'],
    ['a date in another format', (p: Record<string, unknown>) => (p.birthDate = '17/05/1981'), /must match pattern .* at \/birthDate$/m],
    ['an id with characters ids cannot have', (p: Record<string, unknown>) => (p.id = 'p 1'), /must match pattern .* at \/id$/m],
    ['an empty string', (p: Record<string, unknown>) => ((p.name as { family: string }[])[0]!.family = ''), /must match pattern .* at \/name\/0\/family$/m],
    [
      'an instant without its zone',
      (p: Record<string, unknown>) => (p.meta = { lastUpdated: '2026-10-14T15:05:00' }),
      /must match pattern .* at \/meta\/lastUpdated$/m,
    ],
    [
      'one value inside a type where R4 has a list',
      (p: Record<string, unknown>) => (p.name = [{ family: 'Lee', given: 'Ann' }]),
      'must be array at /name/0/given',
    ],
    [
      'a property a type inside does not have',
      (p: Record<string, unknown>) => (p.identifier = [{ system: 'urn:ietf:rfc:3986', id_: 'x' }]),
      'must NOT have additional properties (id_) at /identifier/0',
    ],
  ])('refuses %s', (_, change, message) => {
    const errors = r4SchemaErrors(broken(change));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(message);
    expect(errors.every((e) => e.startsWith('Patient/'))).toBe(true);
    // fhirErrors runs it: its errors are among those fhirErrors reports.
    expect(fhirErrors(broken(change))).toEqual(expect.arrayContaining(errors));
  });

  it('refuses a resource missing a required element of a complex type, and a type R4 does not have', () => {
    const observation = { resourceType: 'Observation', id: 'o1', status: 'final' } as Observation;
    expect(r4SchemaErrors(observation)).toEqual(["Observation/o1 (R4 JSON schema): must have required property 'code' at /"]);
    expect(r4SchemaErrors({ resourceType: 'Prescription', id: 'x' } as unknown as Resource)).toEqual([
      'Prescription/x (R4 JSON schema): no resource type of R4',
    ]);
  });

  it("does not judge what the schema cannot say, which Medplum's validator does: a missing required primitive, a complex value that is no object", () => {
    // R4's schema lists no primitive as required (its `_status` may stand for it), and its
    // complex types say no `type: object`: both pass the schema, and fhirErrors still refuses them.
    const observation = { resourceType: 'Observation', id: 'o1', code: { text: 'Potassium' } } as Observation;
    expect(r4SchemaErrors(observation)).toEqual([]);
    expect(fhirErrors(observation).join('\n')).toMatch(/status/);
    const stringReference = { ...patient(), managingOrganization: 'Organization/clinic' } as unknown as Patient;
    expect(r4SchemaErrors(stringReference)).toEqual([]);
    expect(fhirErrors(stringReference).join('\n')).toMatch(/managingOrganization/);
  });

  it("refuses a Bundle whose entry is broken: one line for the entry in the Bundle, the entry's own errors from its own check", () => {
    const bundle: Bundle = {
      resourceType: 'Bundle',
      id: 'b1',
      type: 'searchset',
      total: 2,
      entry: [{ resource: patient() }, { resource: broken((p) => (p.gender = 7)) as Patient }],
    };
    const errors = fhirErrors(bundle);
    expect(errors).toContain('Bundle/b1 (R4 JSON schema): is no valid R4 resource at /entry/1/resource');
    expect(errors).toContain('Patient/p1 (R4 JSON schema): must be equal to one of the allowed values (male, female, other, unknown) at /gender');
    expect(errors.filter((e) => e.startsWith('Bundle/b1 (R4 JSON schema)'))).toEqual([
      'Bundle/b1 (R4 JSON schema): is no valid R4 resource at /entry/1/resource',
    ]);
    expect(r4SchemaErrors({ ...bundle, type: 'list' } as unknown as Bundle)).toContain(
      'Bundle/b1 (R4 JSON schema): must be equal to one of the allowed values (document, message, transaction, transaction-response, batch, batch-response, history, searchset, collection) at /type',
    );
  });

  it("takes what R4 4.0.1 allows where the schema's file (4.0.0) was corrected: fhirVersion 4.0.1, Meta as an extension's value; and an extension on a primitive", () => {
    const statement: CapabilityStatement = {
      resourceType: 'CapabilityStatement',
      status: 'active',
      date: '2026-10-14T15:05:00.000Z',
      kind: 'instance',
      fhirVersion: '4.0.1',
      format: ['json'],
    };
    expect(r4SchemaErrors(statement)).toEqual([]);
    expect(r4SchemaErrors({ ...statement, fhirVersion: '4.0.2' } as unknown as CapabilityStatement).join()).toContain('/fhirVersion');
    expect(r4SchemaErrors({ ...patient(), extension: [{ url: 'http://example.org/source', valueMeta: { source: 'http://example.org' } }] })).toEqual([]);
    expect(
      r4SchemaErrors({
        ...patient(),
        _birthDate: { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/patient-birthTime', valueDateTime: '1981-05-17T10:00:00Z' }] },
      } as Patient),
    ).toEqual([]);
  });
});
