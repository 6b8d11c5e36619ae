import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAppointment,
  ZAppointmentConflictBody,
  ZAppointmentList,
  ZAppointmentListQuery,
  ZClinicTime,
  ZConflictQuery,
  ZConflicts,
  ZCreateAppointment,
  ZDayCounts,
  ZDayCountsQuery,
  ZMissingNotesResult,
  ZUpdateAppointment,
} from '#domain/appointments';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendPage } from '../../http/paging.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { APPOINTMENT_READS, clinicTimeOf, createAppointment, dayCountsFor, updateAppointment } from './appointments.service.ts';
import { checkMissingNotes } from './missing-notes.service.ts';

const ZParams = z.object({ id: z.string().uuid('Invalid appointment id') });
/** A PUT's 409: a stale version or a move the workflow refuses (no list), or a clash (with the list). */
const ZUpdateRefusal = ZAppointmentConflictBody.partial({ conflicts: true });

export const appointmentRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/appointments',
    {
      config: { access: 'appointments.read', audit: APPOINTMENT_READS.list },
      schema: { querystring: ZAppointmentListQuery, response: { 200: ZAppointmentList, ...errorResponses } },
    },
    async (request, reply) => sendPage(reply, await reader(deps, contextOf(request))(APPOINTMENT_READS.list, request.query)),
  );

  app.get(
    '/api/appointments/conflicts',
    {
      config: { access: 'appointments.schedule', audit: APPOINTMENT_READS.conflicts },
      schema: { querystring: ZConflictQuery, response: { 200: ZConflicts, ...errorResponses } },
    },
    async (request) => reader(deps, contextOf(request))(APPOINTMENT_READS.conflicts, request.query),
  );

  // Counts per day and the clinic's zone name no patient: nothing to audit.
  app.get(
    '/api/appointments/day-counts',
    { config: { access: 'appointments.read' }, schema: { querystring: ZDayCountsQuery, response: { 200: ZDayCounts, ...errorResponses } } },
    async (request) => dayCountsFor(deps, request.query),
  );

  app.get(
    '/api/appointments/clinic-time',
    {
      config: { access: 'appointments.read' },
      schema: {
        description: "The clinic's time zone, kept for API clients; the web reads it with the clinic's name from GET /api/clinic.",
        response: { 200: ZClinicTime, ...errorResponses },
      },
    },
    async () => clinicTimeOf(deps),
  );

  app.get(
    '/api/appointments/:id',
    { config: { access: 'appointments.read', audit: APPOINTMENT_READS.get }, schema: { params: ZParams, response: { 200: ZAppointment, ...errorResponses } } },
    async (request) => (await reader(deps, contextOf(request))(APPOINTMENT_READS.get, request.params.id)).appointment,
  );

  app.post(
    '/api/appointments',
    {
      config: { access: 'appointments.schedule', audit: { action: 'appointment.create', entityType: 'appointment' } },
      schema: { body: ZCreateAppointment, response: { 201: ZAppointment, ...errorResponses, 409: ZAppointmentConflictBody } },
    },
    async (request, reply) => reply.code(201).send(await createAppointment(deps, contextOf(request), request.body)),
  );

  app.put(
    '/api/appointments/:id',
    {
      config: { access: 'appointments.update', audit: { action: 'appointment.update', entityType: 'appointment' } },
      schema: { params: ZParams, body: ZUpdateAppointment, response: { 200: ZAppointment, ...errorResponses, 409: ZUpdateRefusal } },
    },
    async (request) => updateAppointment(deps, contextOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/appointments/check-missing-notes',
    {
      config: { access: 'appointments.schedule', audit: { action: 'appointment.check_missing_notes', entityType: 'appointment' } },
      schema: { response: { 200: ZMissingNotesResult, ...errorResponses } },
    },
    async (request) => checkMissingNotes(deps, contextOf(request)),
  );
};
