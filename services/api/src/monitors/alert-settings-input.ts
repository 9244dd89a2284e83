import { assertTargetAllowed } from '../http/target-check';
import { parseInput } from '../http/validate';
import { AlertSettingsDto } from './alert-settings.dto';

/** The rule of an alert settings body that comes from configuration. */
export interface AlertSettingsInputRules {
  /** ALLOW_PRIVATE_TARGETS: Slack and webhook URLs follow the monitor URL's rule. */
  allowPrivateTargets: boolean;
}

/**
 * Every rule of a PUT /monitors/{id}/alerts body (all fields optional; no body is an empty one):
 * the DTO, then the Slack URL's target, then the webhook URL's. Whether an enabled channel has its
 * URL, and whether escalation recipients have their delay, depend on the saved settings: the
 * service checks those on the result it would save.
 */
export async function parseAlertSettingsPatch(body: unknown, rules: AlertSettingsInputRules): Promise<AlertSettingsDto> {
  const dto = await parseInput(AlertSettingsDto, body ?? {});
  assertTargetAllowed(rules, dto.slack_webhook_url, 'slack_webhook_url');
  assertTargetAllowed(rules, dto.webhook_url, 'webhook_url');
  return dto;
}
