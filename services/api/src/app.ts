import express, { type Express } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Redis } from 'ioredis';
import type { Config } from '@uptime/config';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import type { MonitorScheduler } from '@uptime/queues';
import { bearerAuth, requireCaller } from './auth/bearer-auth';
import { tokensRouter } from './auth/tokens.routes';
import { errorHandler, notFoundHandler } from './http/error-handler';
import { jsonBody } from './http/json-body';
import { requestContext } from './http/request-context';
import { monitorsRouter } from './monitors/monitors.routes';
import { notificationsRouter } from './notifications/notifications.routes';

export interface AppDeps {
  config: Config;
  dataSource: DataSource;
  redis: Redis;
  scheduler: MonitorScheduler;
  logger: Logger;
}

/** The API as an Express app that does not listen (tests drive it with supertest). */
export function createApp(deps: AppDeps): Express {
  const { config, dataSource: ds, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  app.use(requestContext);
  app.use(
    pinoHttp({
      logger,
      genReqId: (_req, res) => String(res.locals?.requestId ?? ''),
      customProps: (_req, res) => ({ request_id: (res as express.Response).locals?.requestId }),
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    }),
  );
  app.use(helmet());

  const v1 = express.Router();
  v1.use(jsonBody);
  v1.use(bearerAuth(ds));
  v1.use(requireCaller);
  v1.use('/auth/tokens', tokensRouter(ds));
  v1.use('/monitors', monitorsRouter({ ds, scheduler: deps.scheduler, minCheckIntervalSeconds: config.minCheckIntervalSeconds }));
  v1.use('/notifications', notificationsRouter(ds));
  app.use('/api/v1', v1);

  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
