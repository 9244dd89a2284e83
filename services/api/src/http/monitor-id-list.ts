import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsInt, Max, Min } from 'class-validator';

/**
 * `monitor_ids` of a body that links monitors (status pages, maintenance windows): 1 to `max`
 * distinct positive int32 ids. Whether they are the caller's is the service's check.
 */
export function MonitorIdList(max: number): PropertyDecorator {
  const rules = [
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(max),
    ArrayUnique({ message: 'monitor_ids must not repeat an id' }),
    IsInt({ each: true, message: 'each of monitor_ids must be an integer' }),
    Min(1, { each: true }),
    Max(2_147_483_647, { each: true }),
  ];
  // Bottom-up, as stacked decorators apply, so the generated schema is the same as when stacked.
  return (target, property) => {
    for (const rule of [...rules].reverse()) rule(target, property);
  };
}
