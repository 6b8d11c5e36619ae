import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZActiveChange,
  ZAdminUser,
  ZAdminUserList,
  ZAdminUserQuery,
  ZDirectoryList,
  ZDirectoryQuery,
  ZInvite,
  ZInviteResult,
  ZLinkCheck,
  ZLinkInfo,
  ZPasswordLink,
  ZRoleAssignment,
  ZRoleChange,
  ZSetPassword,
} from '#domain/users';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendPage } from '../../http/paging.ts';
import { originOf } from '../../http/public-origin.ts';
import { contextOf, visitorContextOf } from '../../http/request-context.ts';
import {
  assignRoleByEmail,
  checkLink,
  directoryFor,
  inviteUser,
  issuePasswordLink,
  setPasswordWithLink,
  setUserActive,
  setUserRole,
  usersFor,
} from './users.service.ts';

const ZUserParams = z.object({ userId: z.string().uuid() });

/**
 * User management (Admin Panel, issue 20): admin only (users.manage). Every change is audited in
 * the same transaction and notifies the user it concerns. The set-password routes are public:
 * the one-time link is the credential. The staff directory is the same tab read-only, for those
 * who may read it but not manage accounts (users.readDirectory: a scheduler).
 */
export const userRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/admin/staff-directory',
    {
      config: { access: 'users.readDirectory' },
      schema: {
        description: "The clinic's staff, read-only: names, roles and whether each account is active, in name order.",
        querystring: ZDirectoryQuery,
        response: { 200: ZDirectoryList, ...errorResponses },
      },
    },
    async (request, reply) => sendPage(reply, await directoryFor(deps, request.query)),
  );

  app.get(
    '/api/admin/users',
    { config: { access: 'users.manage' }, schema: { querystring: ZAdminUserQuery, response: { 200: ZAdminUserList, ...errorResponses } } },
    async (request, reply) => sendPage(reply, await usersFor(deps, request.query)),
  );

  app.post(
    '/api/admin/users',
    {
      config: { access: 'users.manage' },
      schema: {
        description: 'Invites a user: created inactive, with a one-time set-password link.',
        body: ZInvite,
        response: { 201: ZInviteResult, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return inviteUser(deps, contextOf(request), request.body, originOf(deps, request));
    },
  );

  app.put(
    '/api/admin/users/role',
    {
      config: { access: 'users.manage' },
      schema: {
        description: "The role assignment form: a user's role by their email.",
        body: ZRoleAssignment,
        response: { 200: ZAdminUser, ...errorResponses },
      },
    },
    async (request) => assignRoleByEmail(deps, contextOf(request), request.body.email, request.body.role),
  );

  app.put(
    '/api/admin/users/:userId/role',
    { config: { access: 'users.manage' }, schema: { params: ZUserParams, body: ZRoleChange, response: { 200: ZAdminUser, ...errorResponses } } },
    async (request) => setUserRole(deps, contextOf(request), request.params.userId, request.body.role),
  );

  app.put(
    '/api/admin/users/:userId/status',
    {
      config: { access: 'users.manage' },
      schema: {
        description: 'Deactivates (ending sessions and sockets) or reactivates an account.',
        params: ZUserParams,
        body: ZActiveChange,
        response: { 200: ZAdminUser, ...errorResponses },
      },
    },
    async (request) => setUserActive(deps, contextOf(request), request.params.userId, request.body.isActive),
  );

  app.post(
    '/api/admin/users/:userId/password-link',
    {
      config: { access: 'users.manage' },
      schema: {
        description: 'A new one-time link: an invite again, or a password reset.',
        params: ZUserParams,
        response: { 201: ZPasswordLink, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return issuePasswordLink(deps, contextOf(request), request.params.userId, originOf(deps, request));
    },
  );

  app.post(
    '/api/auth/password-link',
    {
      config: { access: 'public' },
      schema: { description: 'Whose link this is, if it can still be used.', body: ZLinkCheck, response: { 200: ZLinkInfo, ...errorResponses } },
    },
    async (request) => checkLink(deps, request.body.token),
  );

  app.post(
    '/api/auth/set-password',
    { config: { access: 'public' }, schema: { body: ZSetPassword, response: { 204: z.null(), ...errorResponses } } },
    async (request, reply) => {
      await setPasswordWithLink(deps, visitorContextOf(request), request.body);
      return reply.code(204).send(null);
    },
  );
};
