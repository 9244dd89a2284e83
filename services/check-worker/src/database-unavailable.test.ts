import { isDatabaseUnavailable, WriteDeadlineError } from './database-unavailable';

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['a server shutting down (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a connection exception (08006)', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['too many connections (53300)', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
    ['a write past its deadline', new WriteDeadlineError(5000)],
    ["a statement cancelled by the batch's statement_timeout (57014)", Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })],
    ["TypeORM's wrapper around one", Object.assign(new Error('Query failed'), { driverError: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) })],
  ])('says yes to %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a constraint violation', Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })],
    ['a syntax error of ours', Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['something that is not an error', 'ECONNREFUSED'],
    ['nothing', null],
  ])('says no to %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
