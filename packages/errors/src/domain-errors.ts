import { ERROR_STATUS, type ErrorCode } from './error-codes';

/** Field name → messages, or a free-form object (for INVALID_MONITOR_TYPE: `{ field, value }`). */
export type ErrorDetails = Record<string, unknown>;

/** Base of every error the API answers deliberately; anything else is a 500. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = new.target.name;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

const NOT_FOUND_CODES = {
  monitor: 'MONITOR_NOT_FOUND',
  notification: 'NOTIFICATION_NOT_FOUND',
  agent: 'AGENT_NOT_FOUND',
  token: 'TOKEN_NOT_FOUND',
  'status page': 'STATUS_PAGE_NOT_FOUND',
  'maintenance window': 'MAINTENANCE_WINDOW_NOT_FOUND',
  incident: 'INCIDENT_NOT_FOUND',
  organization: 'ORGANIZATION_NOT_FOUND',
  member: 'MEMBER_NOT_FOUND',
  invitation: 'INVITATION_NOT_FOUND',
  channel: 'CHANNEL_NOT_FOUND',
  result: 'NOT_FOUND',
  subscriber: 'SUBSCRIBER_NOT_FOUND',
  route: 'NOT_FOUND',
} as const satisfies Record<string, ErrorCode>;

export type NotFoundKind = keyof typeof NOT_FOUND_CODES;

export class NotFoundError extends DomainError {
  constructor(kind: NotFoundKind, id?: number | string) {
    const label = kind.charAt(0).toUpperCase() + kind.slice(1);
    super(NOT_FOUND_CODES[kind], id === undefined ? `${label} not found` : `${label} ${id} not found`);
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, details?: Record<string, string[]>) {
    super('VALIDATION_ERROR', message, details);
  }
}

export class InvalidMonitorTypeError extends DomainError {
  constructor(value: unknown) {
    super('INVALID_MONITOR_TYPE', `Monitor type ${JSON.stringify(value)} is not supported; only "http" is`, {
      field: 'type',
      value,
    });
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Authentication required') {
    super('UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'You do not have permission to do this', details?: ErrorDetails) {
    super('INSUFFICIENT_PERMISSIONS', message, details);
  }
}

export class ConflictError extends DomainError {
  constructor(code: 'RESOURCE_EXISTS' | 'INVALID_STATE', message: string) {
    super(code, message);
  }
}

export class ServiceUnavailableError extends DomainError {
  constructor(message = 'A backing service is unavailable') {
    super('SERVICE_UNAVAILABLE', message);
  }
}
