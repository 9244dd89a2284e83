import { ALERT_EPISODE_KINDS, NOTIFICATION_TYPES } from '@uptime/db';
import { ALERT_KINDS } from '.';

const specs = Object.entries(ALERT_KINDS);
const typesOf = ([, spec]: (typeof specs)[number]): string[] => [spec.notificationType, ...(spec.end.tells === 'notification' ? [spec.end.type] : [])];

describe('the alert kinds', () => {
  it('has a kind for downtime and for every kind of alert episode the database allows', () => {
    expect(Object.keys(ALERT_KINDS).sort()).toEqual(['downtime', ...ALERT_EPISODE_KINDS].sort());
  });

  it('gives every notification a type the API knows, each type to one kind only', () => {
    const types = specs.flatMap(typesOf);
    expect(types.filter((t) => !(NOTIFICATION_TYPES as readonly string[]).includes(t))).toEqual([]);
    expect(new Set(types).size).toBe(types.length);
  });
});
