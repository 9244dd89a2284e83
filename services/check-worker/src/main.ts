import 'reflect-metadata';
import { runWorkerService } from '@uptime/observability';
import { startCheckWorker } from './check-worker';

// Standalone check-worker: health listener first, database retried, SIGTERM finishes the checks
// in flight within 30 s (else puts them back in the queue). See runService.
void runWorkerService('check-worker', startCheckWorker);
