import { parseWithRequired } from '../http/required-fields';
import { parseInput } from '../http/validate';
import {
  IncidentCreateDto,
  IncidentFieldsDto,
  IncidentUpdateDto,
  MarkdownPreviewDto,
  REQUIRED_ON_PREVIEW,
  REQUIRED_ON_CREATE,
  REQUIRED_ON_UPDATE,
  type IncidentStatus,
} from './incident.dto';

export type NewIncident = IncidentCreateDto & Required<Pick<IncidentCreateDto, (typeof REQUIRED_ON_CREATE)[number]>>;
export type NewIncidentUpdate = { status: IncidentStatus; message: string };

/** Every rule of a create body: each invalid field and each missing one, in one answer. */
export async function parseIncidentCreate(body: unknown): Promise<NewIncident> {
  return (await parseWithRequired(IncidentCreateDto, body, REQUIRED_ON_CREATE)) as NewIncident;
}

/** A PATCH body (all fields optional; `status` is not one of them). */
export async function parseIncidentPatch(body: unknown): Promise<IncidentFieldsDto> {
  return parseInput(IncidentFieldsDto, body);
}

/** An update's body: status and message, both required. */
export async function parseIncidentUpdate(body: unknown): Promise<NewIncidentUpdate> {
  return (await parseWithRequired(IncidentUpdateDto, body, REQUIRED_ON_UPDATE)) as NewIncidentUpdate;
}

/** A preview's body: the message, required. */
export async function parseMarkdownPreview(body: unknown): Promise<{ message: string }> {
  return (await parseWithRequired(MarkdownPreviewDto, body, REQUIRED_ON_PREVIEW)) as { message: string };
}
