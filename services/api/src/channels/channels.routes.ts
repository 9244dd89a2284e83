import { Router, type RequestHandler } from 'express';
import { callerOf, creatorOf } from '../auth/caller';
import { auditActorOf } from '../audit/audit';
import { sendData, sendList, sendMessage } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { parseChannelCreate, parseChannelPatch } from './channel-input';
import { toChannelResponse, toSavedChannelResponse } from './channel.presenter';
import { TestRateLimitedError, type AlertTestDeps } from '../monitors/alert-test.service';
import { createChannel, deleteChannel, getChannel, listChannels, sendChannelTest, updateChannelFields, type ChannelDeps } from './channels.service';

/** `/channels`: the organization's notification channels (docs/channels.md). */
export function channelsRouter(deps: ChannelDeps & AlertTestDeps): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    const { input, config } = await parseChannelCreate(req.body, deps);
    sendData(res, toSavedChannelResponse(await createChannel(deps, creatorOf(req), input, config, auditActorOf(req))), 201);
  });

  router.get('/', async (req, res) => {
    const page = parsePage(req.query as Record<string, unknown>, { defaultLimit: 25, maxLimit: 100 });
    const { rows, total } = await listChannels(deps.ds, callerOf(req).organizationId, page);
    sendList(res, rows.map((row) => toChannelResponse(row)), { page: page.page, limit: page.limit, total });
  });

  router.get('/:id', async (req, res) => {
    sendData(res, toChannelResponse(await getChannel(deps.ds, callerOf(req).organizationId, parseId(req.params.id, 'channel'))));
  });

  const update: RequestHandler = async (req, res) => {
    const id = parseId(req.params.id, 'channel');
    const input = await parseChannelPatch(req.body);
    sendData(res, toSavedChannelResponse(await updateChannelFields(deps, callerOf(req).organizationId, id, input, auditActorOf(req))));
  };
  router.put('/:id', update);
  router.patch('/:id', update);

  router.delete('/:id', async (req, res) => {
    const detached = await deleteChannel(deps.ds, callerOf(req).organizationId, parseId(req.params.id, 'channel'), auditActorOf(req));
    sendMessage(res, `Channel deleted; detached from ${detached} monitor${detached === 1 ? '' : 's'}`, { detached_monitors: detached });
  });

  router.post('/:id/test', async (req, res) => {
    try {
      sendData(res, await sendChannelTest(deps, callerOf(req).organizationId, parseId(req.params.id, 'channel'), auditActorOf(req)));
    } catch (err) {
      if (err instanceof TestRateLimitedError) res.setHeader('Retry-After', String(err.retryAfterSeconds));
      throw err;
    }
  });

  return router;
}
