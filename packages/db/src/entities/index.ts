import { Agent } from './agent.entity';
import { Alert } from './alert.entity';
import { AlertEpisode } from './alert-episode.entity';
import { ApiToken } from './api-token.entity';
import { CheckLocationResult } from './check-location-result.entity';
import { CheckResult } from './check-result.entity';
import { NotificationDelivery } from './notification-delivery.entity';
import { Incident } from './incident.entity';
import { Monitor } from './monitor.entity';
import { Notification } from './notification.entity';
import { User } from './user.entity';
import { UserIdentity } from './user-identity.entity';
import { UserPreferences } from './user-preferences.entity';

export * from './agent.entity';
export * from './alert.entity';
export * from './alert-episode.entity';
export * from './api-token.entity';
export * from './check-location-result.entity';
export * from './check-result.entity';
export * from './notification-delivery.entity';
export * from './incident.entity';
export * from './monitor.entity';
export * from './notification.entity';
export * from './user.entity';
export * from './user-identity.entity';
export * from './user-preferences.entity';

export const ENTITIES = [User, UserIdentity, ApiToken, Monitor, CheckResult, Incident, Notification, NotificationDelivery, UserPreferences, Agent, CheckLocationResult, Alert, AlertEpisode];
