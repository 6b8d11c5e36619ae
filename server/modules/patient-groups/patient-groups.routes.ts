import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZAddGroupMembers, ZCreatePatientGroup, ZPatientGroup, ZPatientGroupDetail, ZPatientGroups, ZRenamePatientGroup } from '#domain/patient-groups';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import {
  addGroupMembers,
  createPatientGroup,
  deletePatientGroup,
  PATIENT_GROUP_READS,
  removeGroupMember,
  renamePatientGroup,
} from './patient-groups.service.ts';

const ZParams = z.object({ id: z.string().uuid('Invalid patient group id') });
const ZMemberParams = ZParams.extend({ patientId: z.string().uuid('Invalid patient id') });
const access = 'patientGroups.manage';
const group = { entityType: 'patient_group' } as const;

/**
 * Patient groups (issue 53; docs/decisions/fhir.md): an admin keeps them; API clients read them as
 * FHIR `Group` and export them with `Group/{id}/$export`.
 */
export const patientGroupRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/admin/patient-groups',
    {
      config: { access },
      schema: {
        description: 'Patient groups by name, each with how many members the caller sees; no patient named.',
        response: { 200: ZPatientGroups, ...errorResponses },
      },
    },
    async (request) => reader(deps, contextOf(request))(PATIENT_GROUP_READS.list, undefined),
  );

  app.post(
    '/api/admin/patient-groups',
    {
      config: { access, audit: { action: 'group.create', ...group } },
      schema: {
        description: 'Creates a patient group, with its first members when given (an id of no patient the caller sees is a 400 naming it).',
        body: ZCreatePatientGroup,
        response: { 201: ZPatientGroup, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createPatientGroup(deps, contextOf(request), request.body)),
  );

  app.get(
    '/api/admin/patient-groups/:id',
    {
      config: { access, audit: PATIENT_GROUP_READS.get },
      schema: {
        description: 'A patient group and its members the caller sees, by name: a read of patient names, audited.',
        params: ZParams,
        response: { 200: ZPatientGroupDetail, ...errorResponses },
      },
    },
    async (request) => reader(deps, contextOf(request))(PATIENT_GROUP_READS.get, request.params.id),
  );

  app.patch(
    '/api/admin/patient-groups/:id',
    {
      config: { access, audit: { action: 'group.rename', ...group } },
      schema: { description: 'Renames a patient group.', params: ZParams, body: ZRenamePatientGroup, response: { 200: ZPatientGroup, ...errorResponses } },
    },
    async (request) => renamePatientGroup(deps, contextOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/admin/patient-groups/:id/members',
    {
      config: { access, audit: { action: 'group.member_add', ...group } },
      schema: {
        description: 'Adds patients to a group (those already in it stay); an id of no patient the caller sees is a 400 naming it, and nothing is added.',
        params: ZParams,
        body: ZAddGroupMembers,
        response: { 200: ZPatientGroup, ...errorResponses },
      },
    },
    async (request) => addGroupMembers(deps, contextOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/admin/patient-groups/:id/members/:patientId',
    {
      config: { access, audit: { action: 'group.member_remove', ...group } },
      schema: { description: 'Removes a patient from a group.', params: ZMemberParams, response: { 200: ZPatientGroup, ...errorResponses } },
    },
    async (request) => removeGroupMember(deps, contextOf(request), request.params.id, request.params.patientId),
  );

  app.delete(
    '/api/admin/patient-groups/:id',
    {
      config: { access, audit: { action: 'group.delete', ...group } },
      schema: { description: 'Deletes a patient group (its patients stay as they are).', params: ZParams, response: { 204: z.null(), ...errorResponses } },
    },
    async (request, reply) => {
      await deletePatientGroup(deps, contextOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
