import fc from 'fast-check';
import { parseJob } from './parse-job';
import { cycleFieldsOf, parseRunCheckJob, RunCheckJob } from './run-check.job';

/** What each parse gives: the parsed job, or the error's class and message. */
function outcomeOf(parse: () => RunCheckJob): { job: RunCheckJob } | { error: string } {
  try {
    return { job: parse() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/** A fresh copy, as BullMQ parses a job's data (JSON.parse of this realm: structuredClone's objects are another's). */
const asDelivered = (data: unknown): unknown => JSON.parse(JSON.stringify(data) ?? 'null');

/** Mostly integers around the rule's bound of 1, sometimes anything JSON holds. */
const anId = fc.oneof(
  { arbitrary: fc.integer({ min: -1, max: 3 }), weight: 6 },
  { arbitrary: fc.constantFrom(1.5, null, '3'), weight: 1 },
  { arbitrary: fc.jsonValue(), weight: 1 },
);

/** Job data as BullMQ hands it over (parsed JSON), mostly close to the rules so as to cross them often. */
const jobData = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        monitorId: anId,
        configVersion: anId,
        check: fc.oneof({ arbitrary: fc.dictionary(fc.string(), fc.jsonValue()), weight: 6 }, { arbitrary: fc.jsonValue(), weight: 1 }),
        agentIds: fc.oneof(
          fc.constant(undefined),
          fc.array(anId, { maxLength: 3 }),
          fc.array(fc.constant(7), { minLength: 99, maxLength: 101 }),
          fc.jsonValue(),
        ),
        interval: fc.oneof(fc.constant(undefined), anId),
        plannedAt: fc.oneof(fc.constant(undefined), fc.constant(1795000000123), anId),
        retrying: fc.oneof(fc.constant(undefined), fc.boolean(), fc.jsonValue()),
        extra: fc.jsonValue(),
      },
      { requiredKeys: ['monitorId', 'configVersion', 'check'] },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue() },
);

describe('parseRunCheckJob', () => {
  it('gives what parseJob(RunCheckJob) gives, for a scheduler template and a broken one', () => {
    const template = {
      monitorId: 12,
      configVersion: 3,
      check: { url: 'https://example.test/', timeout: 30, headers: { a: 'b' } },
      agentIds: [1, 2],
    };
    const monitorJob = { ...template, interval: 30, plannedAt: 1795000000123, retrying: true };
    expect(parseRunCheckJob(monitorJob)).toStrictEqual(parseJob(RunCheckJob, monitorJob));
    expect(parseRunCheckJob(template)).toStrictEqual(parseJob(RunCheckJob, template));
    expect(parseRunCheckJob(template)).toBeInstanceOf(RunCheckJob);
    // class-transformer leaves such keys out of its copy (or, for `constructor`, throws); so must this.
    for (const key of ['__proto__', 'constructor', 'toString']) {
      const data = JSON.parse(`{"monitorId":1,"configVersion":1,"check":{"headers":{"${key}":{"x":"1"}}}}`) as unknown;
      expect(outcomeOf(() => parseRunCheckJob(data))).toStrictEqual(outcomeOf(() => parseJob(RunCheckJob, data)));
    }
    expect(() => parseRunCheckJob({ ...template, monitorId: 0 })).toThrow(
      'invalid RunCheckJob payload: monitorId: monitorId must not be less than 1',
    );
  });

  it('accepts, returns and refuses exactly as parseJob(RunCheckJob) does, for any JSON job data', () => {
    fc.assert(
      fc.property(jobData, (data) => {
        expect(outcomeOf(() => parseRunCheckJob(asDelivered(data)))).toStrictEqual(
          outcomeOf(() => parseJob(RunCheckJob, asDelivered(data))),
        );
      }),
      { numRuns: 1000 },
    );
  });
});

describe('cycleFieldsOf', () => {
  it("reads a monitor job's interval, planned time and retry mark", () => {
    expect(cycleFieldsOf({ monitorId: 1, interval: 60, plannedAt: 1_764_288_000_000, retrying: true })).toEqual({
      interval: 60,
      plannedAt: 1_764_288_000_000,
      retrying: true,
    });
  });

  it('gives nothing but retrying: false for a one-off, missing data, or fields RunCheckJob would refuse', () => {
    for (const data of [{ monitorId: 1 }, undefined, null, 'x', { interval: 0, plannedAt: -5, retrying: 'yes' }, { interval: 1.5, plannedAt: '17' }]) {
      expect(cycleFieldsOf(data)).toEqual({ retrying: false });
    }
  });
});
