import { defaultLogFormat } from './index';

describe('defaultLogFormat', () => {
  it('is pretty for a person at a terminal and JSON lines for everything else', () => {
    expect(defaultLogFormat({ isTTY: true })).toBe('pretty');
    expect(defaultLogFormat({ isTTY: false })).toBe('json');
    expect(defaultLogFormat({})).toBe('json');
  });
});
