import { parseWithRequired } from '../http/required-fields';
import { parseInput } from '../http/validate';
import { REQUIRED_ON_CREATE, StatusPageFieldsDto } from './status-page.dto';

/** Create: slug, title and monitor_ids are present. */
export type NewStatusPage = StatusPageFieldsDto & Required<Pick<StatusPageFieldsDto, (typeof REQUIRED_ON_CREATE)[number]>>;

/** Every rule of a create body: each invalid field and each missing required one, in one answer. */
export async function parseStatusPageCreate(body: unknown): Promise<NewStatusPage> {
  return (await parseWithRequired(StatusPageFieldsDto, body, REQUIRED_ON_CREATE)) as NewStatusPage;
}

/** Every rule of a PUT or PATCH body (all fields optional). Whose monitors they are is the service's to check. */
export async function parseStatusPagePatch(body: unknown): Promise<StatusPageFieldsDto> {
  return parseInput(StatusPageFieldsDto, body);
}
