import { getMetadataStorage } from 'class-validator';
import { CHECK_FIELDS } from '@uptime/probe';
import { FIELDS } from './monitor-fields';
import { MonitorFieldsDto } from './monitor-fields.dto';

const dtoFields = (): string[] =>
  [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(MonitorFieldsDto, '', true, false)
        .map((m) => m.propertyName),
    ),
  ].sort();

describe('MONITOR_FIELDS', () => {
  it('writes every field the DTO accepts, and only those', () => {
    const writable = FIELDS.filter((f) => f.writable).map((f) => f.api);
    expect([...writable].sort()).toEqual(dtoFields());
  });

  it('marks exactly the fields of CHECK_FIELDS as part of the check, under the same names', () => {
    const check = FIELDS.filter((f) => f.check).map((f) => [f.property, f.api]);
    expect(Object.fromEntries(check)).toEqual(CHECK_FIELDS);
  });

  it('names each field once, and gives every writable field a column', () => {
    expect(new Set(FIELDS.map((f) => f.api)).size).toBe(FIELDS.length);
    expect(FIELDS.filter((f) => f.writable && !f.column)).toEqual([]);
  });
});
