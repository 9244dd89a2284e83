import { truncate } from './truncate';

describe('truncate', () => {
  it('keeps a short text and null as they are', () => {
    expect(truncate(null, 5)).toBeNull();
    expect(truncate('', 5)).toBe('');
    expect(truncate('12345', 5)).toBe('12345');
  });

  it('cuts a long text to the limit, the last character an ellipsis', () => {
    expect(truncate('123456', 5)).toBe('1234…');
    expect(truncate('x'.repeat(2000), 500)).toHaveLength(500);
  });
});
