import type { toStatsResponse } from '../monitor-stats/stats.presenter';
import { AgentFieldsDto } from '../agents/agent.dto';
import { CreateTokenDto } from '../auth/tokens.dto';
import { MonitorFieldsDto } from '../monitors/monitor-fields.dto';
import { UpdatePreferencesDto } from '../preferences/preferences.dto';
import { schemaOfDto } from './dto-schema';
import { int, INT32_MAX, nullable, num, objectOf, SAFE_INT_MAX, str, TEXT_MAX, type JsonSchema } from './json-schema';

/** Building blocks of the response schemas, shared by every resource's *-schemas.ts. */

type Stats = ReturnType<typeof toStatsResponse>;

/**
 * A writable field as the API answers it: the same schema the request is validated with (the
 * DTO's), so a stored value and the bound it was accepted under cannot disagree.
 */
function fieldsOf(dto: new () => object): (name: string, extra?: JsonSchema) => JsonSchema {
  const properties = schemaOfDto(dto).properties ?? {};
  return (name, extra = {}) => {
    const schema = properties[name];
    if (!schema) throw new Error(`${dto.name} has no field ${name}`);
    const { default: _default, ...rest } = schema;
    return { ...rest, ...extra };
  };
}
export const monitorField = fieldsOf(MonitorFieldsDto);
export const agentField = fieldsOf(AgentFieldsDto);
export const preferenceField = fieldsOf(UpdatePreferencesDto);
export const tokenName = fieldsOf(CreateTokenDto)('name');
/** Ids of `integer` columns; check results have `bigint` ids. */
export const id = (description?: string): JsonSchema => int({ minimum: 1, maximum: INT32_MAX, ...(description ? { description } : {}) });
export const bigId = (): JsonSchema => int({ minimum: 1, maximum: SAFE_INT_MAX });
export const count = (description?: string): JsonSchema =>
  int({ minimum: 0, maximum: SAFE_INT_MAX, ...(description ? { description } : {}) });
/** Free text the service composes (errors, messages): bounded by the most it may quote. */
export const text = (description?: string): JsonSchema => str({ maxLength: TEXT_MAX, ...(description ? { description } : {}) });
/** An HTTP status code as received (the parser takes three digits). */
export const statusCode = (): JsonSchema => nullable(int({ minimum: 0, maximum: 999 }));
/** The location of a check: an agent's location (varchar 64). */
export const location = (description?: string): JsonSchema => agentField('location', description ? { description } : {});
export const percent = (description: string): JsonSchema =>
  nullable(num({ minimum: 0, maximum: 100, description: `${description}; null without checks` }));
export const ms = (description: string): JsonSchema =>
  nullable(int({ minimum: 0, maximum: INT32_MAX, description: `${description}, milliseconds` }));
export const uptimeWindows = (what: string): JsonSchema =>
  objectOf<Stats['uptime']>({
    '24h': percent(`${what}, last 24 hours`),
    '7d': percent(`${what}, last 7 days`),
    '30d': percent(`${what}, last 30 days`),
  });
