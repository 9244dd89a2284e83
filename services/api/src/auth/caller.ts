import type { Request } from 'express';
import { UnauthorizedError } from '@uptime/errors';
import type { UserRole } from '@uptime/db';

/** Who is calling: set by the authentication middleware. */
export interface Caller {
  id: number;
  email: string;
  role: UserRole;
  /** How the caller authenticated. */
  via: 'token' | 'session';
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      caller?: Caller;
    }
  }
}

export function callerOf(req: Request): Caller {
  if (!req.caller) throw new UnauthorizedError();
  return req.caller;
}
