import type { Worker } from 'bullmq';

/** What BullMQ 6's Worker keeps its running and fetching jobs in (a FIFO of promises). */
interface MainLoopQueue {
  add(promise: Promise<unknown>): void;
}

/**
 * Sets a running BullMQ Worker's concurrency. BullMQ reads a raised value only when one of its
 * jobs ends; with every slot held by slow targets (a 30-s timeout) the worker would wait that
 * long before taking more. Handing its main loop an empty, already settled entry makes it look
 * at the new value now (adaptive-concurrency.test.ts proves it against the pinned BullMQ; without
 * that internal queue, the value still applies at the next job's end).
 */
export function setWorkerConcurrency(worker: Worker, limit: number): void {
  const raised = limit > worker.concurrency;
  worker.concurrency = limit;
  if (!raised) return;
  const mainLoop = (worker as unknown as { mainLoopQueue?: MainLoopQueue | null }).mainLoopQueue;
  if (mainLoop && typeof mainLoop.add === 'function') mainLoop.add(Promise.resolve(undefined));
}
