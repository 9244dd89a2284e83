import { Router } from 'express';
import type { DataSource } from '@uptime/db';
import { callerOf } from '../auth/caller';
import { sendData } from '../http/envelope';
import { parseInput } from '../http/validate';
import { UpdatePreferencesDto } from './preferences.dto';
import { toPreferencesResponse } from './preferences.presenter';
import { getPreferences, updatePreferences } from './preferences.service';

/** `/preferences`: the caller's own preferences (docs/dashboard.md). */
export function preferencesRouter(deps: { ds: DataSource; minCheckIntervalSeconds: number }): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    sendData(res, toPreferencesResponse(await getPreferences(deps.ds, callerOf(req).id)));
  });

  router.put('/', async (req, res) => {
    const dto = await parseInput(UpdatePreferencesDto, req.body ?? {});
    const saved = await updatePreferences(deps.ds, callerOf(req).id, dto, deps);
    sendData(res, toPreferencesResponse(saved));
  });

  return router;
}
