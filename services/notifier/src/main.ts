import 'reflect-metadata';
import { runWorkerProcess } from '@uptime/observability';
import { startNotifier } from './notifier';

// Standalone notifier (any number may run side by side): health listener first, database
// retried, SIGTERM finishes the jobs in flight within 30 s. See runWorkerProcess.
void runWorkerProcess({ service: 'notifier', start: (deps) => startNotifier(deps) });
