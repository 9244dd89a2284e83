import { arrayMaxSize, getMetadataStorage, isArray, isBoolean, isInt, isObject, max, min, ValidationTypes, type ValidationArguments } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** Whether one property's value passes all of its rules, given the whole object the rules may consult. */
export type PropertyTest = (value: unknown, object: Record<string, unknown>) => boolean;

/**
 * class-validator's own function behind each of its decorators this hot path meets, called
 * directly: its decorators wrap the same function in two more calls (several hundred ns a job).
 */
const DIRECT: Readonly<Record<string, (value: unknown, bound: number) => boolean>> = {
  isInt: (value) => isInt(value),
  min: (value, bound) => min(value, bound),
  max: (value, bound) => max(value, bound),
  isBoolean: (value) => isBoolean(value),
  isObject: (value) => isObject(value),
  isArray: (value) => isArray(value),
  arrayMaxSize: (value, bound) => arrayMaxSize(value, bound),
};

/** One rule of a property, as class-validator's executor runs it (ValidationExecutor.customValidations). */
function ruleTest(meta: ValidationMetadata): PropertyTest {
  const constraints = getMetadataStorage().getTargetValidatorConstraints(meta.constraintCls);
  if (constraints.length !== 1 || constraints[0]!.async) throw new Error(`compileRules: ${meta.propertyName} has a rule compileRules does not run`);
  const validator = constraints[0]!.instance as { validate(value: unknown, args: ValidationArguments): unknown };
  const direct = meta.name === undefined ? undefined : DIRECT[meta.name];
  const bound = (meta.constraints ?? [])[0] as number;
  // Otherwise one arguments object per rule, refilled on each call: the rules run synchronously, one at a time.
  const args: ValidationArguments = { targetName: '', property: meta.propertyName, object: {}, value: undefined, constraints: meta.constraints };
  const passes = direct
    ? (value: unknown): boolean => direct(value, bound)
    : (value: unknown, object: Record<string, unknown>): boolean => {
        args.value = value;
        args.object = object;
        return validator.validate(value, args) === true;
      };
  if (!meta.each) return passes;
  return (value, object) => {
    if (!Array.isArray(value)) return passes(value, object);
    for (let i = 0; i < value.length; i++) if (!passes(value[i], object)) return false;
    return true;
  };
}

/**
 * The tests of a payload class's decorators, one per decorated property, run directly: the same
 * rule instances class-validator calls, without class-transformer's copy and class-validator's
 * error objects (several µs a payload). A true answer is what `validateSync` would answer with no
 * error for the same plain data; the messages of a refusal are left to class-validator itself.
 * A kind of rule this does not run (nested, async, `@IsDefined`) is refused when the class loads.
 */
export function compileRules(cls: new () => object): ReadonlyMap<string, PropertyTest> {
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const meta of getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false)) {
    byProperty.set(meta.propertyName, [...(byProperty.get(meta.propertyName) ?? []), meta]);
  }
  const tests = new Map<string, PropertyTest>();
  for (const [property, metas] of byProperty) {
    const conditions: ((object: object, value: unknown) => boolean)[] = [];
    const rules: PropertyTest[] = [];
    for (const meta of metas) {
      if (meta.type === ValidationTypes.CONDITIONAL_VALIDATION) conditions.push(meta.constraints[0] as (object: object, value: unknown) => boolean);
      else if (meta.type === ValidationTypes.CUSTOM_VALIDATION) rules.push(ruleTest(meta));
      else throw new Error(`compileRules: ${cls.name}.${property} has a rule of kind ${meta.type}, which it does not run`);
    }
    tests.set(property, (value, object) => {
      for (let i = 0; i < conditions.length; i++) if (!conditions[i]!(object, value)) return true;
      for (let i = 0; i < rules.length; i++) if (!rules[i]!(value, object)) return false;
      return true;
    });
  }
  return tests;
}
