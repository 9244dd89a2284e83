import { Router } from 'express';
import type { DataSource } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import { findMemberRole } from '../organizations/members.repository';
import { sendData, sendList, sendMessage } from '../http/envelope';
import { parsePage } from '../http/pagination';
import { parseId } from '../http/id-param';
import { parseInput } from '../http/validate';
import { callerOf } from './caller';
import { auditActorOf, changedFieldsOf } from '../audit/audit';
import type { TokenCache } from './token-cache';
import { toTokenResponse } from './token.presenter';
import { CreateTokenDto } from './tokens.dto';
import { createToken, listTokens, revokeToken } from './tokens.service';

/** `/auth/tokens`: API tokens of the caller in the organization the request acts in (docs/security.md, docs/organizations.md). */
export function tokensRouter(ds: DataSource, tokenCache: TokenCache): Router {
  const router = Router();
  router.post('/', async (req, res) => {
    const dto = await parseInput(CreateTokenDto, req.body);
    const caller = callerOf(req);
    const organizationId = dto.organization_id ?? caller.organizationId;
    // A token may act only where its user is a member; anywhere else is an unknown organization.
    if (!(await findMemberRole(ds, organizationId, caller.id))) throw new NotFoundError('organization', organizationId);
    const { token, plaintext } = await createToken(
      ds,
      {
        userId: caller.id,
        organizationId,
        scope: dto.scope ?? 'write',
        name: dto.name,
        expiresInDays: dto.expires_in_days,
      },
      auditActorOf(req),
      changedFieldsOf(dto),
    );
    const { last_used_at: _unused, ...shown } = toTokenResponse(token);
    sendData(res, { ...shown, token: plaintext }, 201);
  });
  router.get('/', async (req, res) => {
    const page = parsePage(req.query as Record<string, unknown>, { defaultLimit: 50, maxLimit: 100 });
    const caller = callerOf(req);
    // Only the tokens of the organization the request acts in: another organization's are not its business.
    const { items, total } = await listTokens(ds, { userId: caller.id, organizationId: caller.organizationId }, page);
    sendList(res, items.map(toTokenResponse), { page: page.page, limit: page.limit, total });
  });
  router.delete('/:id', async (req, res) => {
    const caller = callerOf(req);
    await revokeToken(ds, tokenCache, { userId: caller.id, organizationId: caller.organizationId }, parseId(req.params.id, 'token'), auditActorOf(req));
    sendMessage(res, 'Token revoked');
  });
  return router;
}
