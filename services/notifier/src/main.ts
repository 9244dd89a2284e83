import 'reflect-metadata';
import { runWorkerService } from '@uptime/observability';
import { startNotifier } from './notifier';

// Standalone notifier (any number may run side by side): health listener first, database
// retried, SIGTERM finishes the jobs in flight within 30 s. See runService.
void runWorkerService('notifier', startNotifier);
