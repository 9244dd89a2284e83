import type { AlertContext, AlertKind, AlertOf } from '../alert';
import type { AlertKindSpec } from './alert-kind';
import { certificate } from './certificate';
import { downtime } from './downtime';
import { slow } from './slow';

/** Every kind of alert and what sets it apart (alert-kind.ts). */
export const ALERT_KINDS: { [K in AlertKind]: AlertKindSpec<AlertOf<K>> } = { downtime, slow, certificate };

/** The kind of `alert`, taking the alert as it is (its methods are called with that alert only). */
export const kindOf = (alert: AlertContext): AlertKindSpec<AlertContext> => ALERT_KINDS[alert.kind];
