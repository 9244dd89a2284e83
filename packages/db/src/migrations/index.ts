import { InitialSchema1732270000000 } from './1732270000000-initial-schema';
import { UserIdentities1732270001000 } from './1732270001000-user-identities';
import { UserPreferences1732270002000 } from './1732270002000-user-preferences';
import { Agents1732270003000 } from './1732270003000-agents';
import { LeanCheckResults1732270004000 } from './1732270004000-lean-check-results';
import { CompactCheckResults1732270005000 } from './1732270005000-compact-check-results';
import { PartitionCheckResults1732270006000 } from './1732270006000-partition-check-results';
import { CheckResultTimings1732270020000 } from './1732270020000-check-result-timings';
import { NoDataSpans1732270021000 } from './1732270021000-no-data-spans';
import { NotificationDeliveries1732270030000 } from './1732270030000-notification-deliveries';
import { AlertChannels1732270031000 } from './1732270031000-alert-channels';
import { LoginLinks1732270070000 } from './1732270070000-login-links';
import { StatusPages1732270080000 } from './1732270080000-status-pages';
import { SlowAndRecoveryThresholds1732270110000 } from './1732270110000-slow-and-recovery-thresholds';
import { MonitorDependencies1732270111000 } from './1732270111000-monitor-dependencies';
import { CertificateExpiry1732270112000 } from './1732270112000-certificate-expiry';
import { MaintenanceWindows1732270120000 } from './1732270120000-maintenance-windows';
import { RemindersAndEscalation1732270130000 } from './1732270130000-reminders-and-escalation';
import { SlowAndCertificateAlerts1732270135000 } from './1732270135000-slow-and-certificate-alerts';
import { OwnerMonitorCounts1732270150000 } from './1732270150000-owner-monitor-counts';
import { MonitorsFillfactor1732270160000 } from './1732270160000-monitors-fillfactor';
import { OneAlertTable1732270170000 } from './1732270170000-one-alert-table';
import { Organizations1732270180000 } from './1732270180000-organizations';
import { MonitorTypes1796517600000 } from './1796517600000-monitor-types';
import { StatusPageIncidents1796517699675 } from './1796517699675-status-page-incidents';
import { Channels1796517718261 } from './1796517718261-channels';

/** Every migration, oldest first. New ones are appended here. */
export const MIGRATIONS = [InitialSchema1732270000000, UserIdentities1732270001000, UserPreferences1732270002000, Agents1732270003000, LeanCheckResults1732270004000, CompactCheckResults1732270005000, PartitionCheckResults1732270006000, CheckResultTimings1732270020000, NoDataSpans1732270021000, NotificationDeliveries1732270030000, AlertChannels1732270031000, LoginLinks1732270070000, StatusPages1732270080000, SlowAndRecoveryThresholds1732270110000, MonitorDependencies1732270111000, CertificateExpiry1732270112000, MaintenanceWindows1732270120000, RemindersAndEscalation1732270130000, SlowAndCertificateAlerts1732270135000, OwnerMonitorCounts1732270150000, MonitorsFillfactor1732270160000, OneAlertTable1732270170000, Organizations1732270180000, MonitorTypes1796517600000, StatusPageIncidents1796517699675, Channels1796517718261];
