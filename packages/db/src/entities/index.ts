import { ApiToken } from './api-token.entity';
import { CheckResult } from './check-result.entity';
import { EmailDelivery } from './email-delivery.entity';
import { Incident } from './incident.entity';
import { Monitor } from './monitor.entity';
import { Notification } from './notification.entity';
import { User } from './user.entity';

export * from './api-token.entity';
export * from './check-result.entity';
export * from './email-delivery.entity';
export * from './incident.entity';
export * from './monitor.entity';
export * from './notification.entity';
export * from './user.entity';

export const ENTITIES = [User, ApiToken, Monitor, CheckResult, Incident, Notification, EmailDelivery];
