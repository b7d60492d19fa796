// The server and the caller's workspace: /info (public), /settings, /workspaces, what the workspace shares.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { qInt, route } from '../route';
import { sharedEntities } from '../store/workspace';

export function registerWorkspace(app: FastifyInstance, ctx: Ctx, info: () => unknown) {
  route(app, 'GET', '/info', { config: { public: true } }, () => info());
  route(app, 'GET', '/info/health', { config: { public: true, noFaults: true } }, () => ({ status: 'ok' }));

  const workspace = (t: { id: string; displayName: string; handle: string }) => ({
    id: t.id,
    display_name: t.displayName,
    tenant_handle: t.handle,
    created_at: ctx.startedAt,
    is_personal: false,
  });
  route(app, 'GET', '/settings', {}, ({ tenant }) => workspace(tenant));
  route(app, 'GET', '/workspaces', {}, ({ tenant }) => [workspace(tenant)]);

  // The workspace's users, one per API key (LangSmith's TenantMembers): their ids are what review statuses,
  // reservations and assigned reviewers of annotation queues name.
  route(app, 'GET', '/workspaces/current/members', {}, ({ tenant }) => ({
    tenant_id: tenant.id,
    members: ctx.users
      .filter((u) => u.tenant === tenant)
      .map((u) => ({
        id: u.id,
        user_id: u.id,
        ls_user_id: u.id,
        tenant_id: tenant.id,
        organization_id: null,
        created_at: ctx.startedAt,
        email: null,
        full_name: u.name,
        display_name: u.name,
        avatar_url: null,
        read_only: false,
        role_id: null,
        role_name: 'Admin',
        access_scope: 'workspace',
        is_disabled: false,
      })),
    pending: [],
  }));

  // What the workspace shares publicly: datasets first, then runs, newest first within each.
  route(
    app, 'GET', '/workspaces/current/shared',
    { query: z.object({ limit: qInt(50, 1, 100), offset: qInt(0, 0, Number.MAX_SAFE_INTEGER) }) },
    ({ query, tenant }) => ({ entities: sharedEntities(ctx, tenant, query.limit, query.offset) }),
  );
}
