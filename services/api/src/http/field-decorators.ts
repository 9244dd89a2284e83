import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { rulesOf, type FieldRule, type FieldSpec } from '@uptime/probe';
import { HasNoRefusedCheckHeaders, IsDnsUrl, IsHeaderMap, IsHostPort, IsHttpUrl, IsPingUrl, IsTcpUrl, MaxUtf8Bytes, Nullable, Optional } from './validators';

/** Each rule of a declared field as its class-validator decorator (the agent protocol calls the same functions). */
function decoratorOf(r: FieldRule): PropertyDecorator {
  const each = 'each' in r && r.each ? { each: true } : {};
  switch (r.rule) {
    case 'isString':
      return IsString(each);
    case 'isBoolean':
      return IsBoolean(each);
    case 'isArray':
      return IsArray();
    case 'isInt':
      return IsInt(each);
    case 'min':
      return Min(r.bound, each);
    case 'max':
      return Max(r.bound, each);
    case 'maxLength':
      return MaxLength(r.bound, each);
    case 'arrayMaxSize':
      return ArrayMaxSize(r.bound);
    case 'maxUtf8Bytes':
      return MaxUtf8Bytes(r.bound, each);
    case 'length':
      return Length(r.min, r.max, each);
    case 'matches':
      return Matches(new RegExp(r.source), { message: r.message });
    case 'isIn':
      return IsIn([...r.values], { message: r.message });
    case 'isHttpUrl':
      return IsHttpUrl();
    case 'isTcpUrl':
      return IsTcpUrl();
    case 'isDnsUrl':
      return IsDnsUrl();
    case 'isHostPort':
      return IsHostPort();
    case 'isPingUrl':
      return IsPingUrl();
    case 'isHeaderMap':
      return IsHeaderMap();
    case 'hasNoRefusedCheckHeaders':
      return HasNoRefusedCheckHeaders();
  }
}

const upper = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.toUpperCase() : value);

/**
 * The validation of a declared field (packages/probe/src/fields/field-spec.ts) in a body where
 * every field is optional: absent leaves it alone, null clears it where the field is nullable.
 * The decorators are applied as if written `@Optional() @Transform() @Rule1() @Rule2()` on the
 * property, so the messages and the OpenAPI schema come in the order a hand-written DTO gives.
 */
export function FieldRules(spec: FieldSpec): PropertyDecorator {
  const decorators = [
    spec.nullable ? Nullable() : Optional(),
    ...(spec.type.kind === 'choice' && spec.type.upperCase ? [Transform(upper)] : []),
    ...rulesOf(spec).map(decoratorOf),
  ];
  // TypeScript applies stacked decorators from the last to the first.
  return (target, property) => {
    for (const decorate of [...decorators].reverse()) decorate(target, property);
  };
}
