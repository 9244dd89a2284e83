import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  Length,
  Max,
  Min,
  ValidateIf,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';
import { SETTABLE_AGENT_STATUSES } from '@uptime/db';
import { ValidationError } from '@uptime/errors';

/** Optional but not nullable: absent leaves the field alone, null is refused. */
const Optional = (): PropertyDecorator => ValidateIf((_o, v) => v !== undefined);

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

/**
 * The agent's base URL: absolute http(s), no credentials, query or fragment, since the protocol
 * paths are appended to it (`{url}/v1/check`).
 */
function IsAgentUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isAgentUrl',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: `${String(propertyName)} must be an absolute http(s) URL without credentials, query or fragment`, ...options },
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string' || value.length > 2048 || !/^https?:\/\/[^\s]+$/i.test(value)) return false;
          try {
            const url = new URL(value);
            return (
              (url.protocol === 'http:' || url.protocol === 'https:') &&
              url.hostname.length > 0 &&
              !url.username &&
              !url.password &&
              !url.search &&
              !url.hash
            );
          } catch {
            return false;
          }
        },
      },
    });
}

/** The writable fields of an agent: all optional here; create requires name, location and url. */
export class AgentFieldsDto {
  @Optional() @Transform(trim) @IsString() @Length(1, 100) name?: string;
  @Optional() @Transform(trim) @IsString() @Length(1, 64) location?: string;
  @Optional() @IsAgentUrl() url?: string;
  @Optional() @IsBoolean() is_public?: boolean;
}

export class AgentStatusDto {
  @IsIn(SETTABLE_AGENT_STATUSES, {
    message: `status must be one of ${SETTABLE_AGENT_STATUSES.join(', ')} (unreachable is set by the service)`,
  })
  status!: (typeof SETTABLE_AGENT_STATUSES)[number];
}

export class TogglePublishingDto {
  /** Absent: flip. */
  @Optional() @IsBoolean() is_public?: boolean;
}

/** Body of POST and DELETE /monitors/{id}/agents. */
export class AgentIdsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  agent_ids!: number[];
}

/** For actions that take no body (validate): any field sent is unknown, a 400 like elsewhere. */
export function assertNoBodyFields(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body))
    throw new ValidationError('The request body must be a JSON object', { body: ['must be a JSON object'] });
  const fields = Object.keys(body);
  if (fields.length > 0)
    throw new ValidationError(
      `Invalid body: ${fields.join(', ')}`,
      Object.fromEntries(fields.map((f) => [f, [`${f} is not a known field`]])),
    );
}
