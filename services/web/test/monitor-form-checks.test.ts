import { checkMonitorForm, humanFieldMessage, integerProblem } from '../src/pages/monitor-form/monitor-form-checks';
import { emptyMonitorForm } from '../src/pages/monitor-form/monitor-form-values';

const limits = { minCheckInterval: 30 };
const form = (changes: Partial<ReturnType<typeof emptyMonitorForm>>) => ({ ...emptyMonitorForm(), name: 'Shop', url: 'https://shop.example.com/', ...changes });

describe("the monitor form's own checks", () => {
  it('passes a complete form', () => {
    expect(checkMonitorForm(form({}), limits)).toEqual({});
  });

  it('names every problem at once, in words, by the API field name', () => {
    expect(checkMonitorForm(form({ name: '  ', url: 'example.com/shop', check_interval: '1', timeout: '301', retry_count: 'x' }), limits)).toEqual({
      name: ['Required: a name for the monitor'],
      url: ['Not a full address: write it as http:// or https://, with a host'],
      check_interval: ['At least 30 seconds'],
      timeout: ['At most 300 seconds'],
      retry_count: ['A whole number, 0 to 10'],
    });
  });

  it("takes the interval's floor from the install and its ceiling from the declaration", () => {
    expect(checkMonitorForm(form({ check_interval: '10' }), { minCheckInterval: 5 })).toEqual({});
    expect(checkMonitorForm(form({ check_interval: '86401' }), limits).check_interval).toEqual(['At most 86400 seconds']);
    expect(checkMonitorForm(form({ check_interval: '' }), limits).check_interval).toEqual(['Required: a number of seconds, 30 to 86400']);
  });

  it("checks a tcp, dns or ping target by its type's own format", () => {
    expect(checkMonitorForm(form({ type: 'tcp', url: 'https://shop.example.com/' }), limits).url).toEqual([
      'Not a full address: write it as tcp://HOST:PORT or tls://HOST:PORT, with a host',
    ]);
    expect(checkMonitorForm(form({ type: 'tcp', url: 'tcp://db.example.com:5432' }), limits)).toEqual({});
    expect(checkMonitorForm(form({ type: 'dns', url: '' }), limits).url).toEqual(['Required: the address to check, dns://NAME']);
  });

  it('says a bound with its unit, singular for one', () => {
    expect(integerProblem('0', 1, 5, 'seconds')).toBe('At least 1 second');
    expect(integerProblem('3', 1, 5, 'seconds')).toBeNull();
    expect(integerProblem('2.5', 1, 5, '')).toBe('A whole number, 1 to 5');
  });

  it("puts the API's refusals in the same words", () => {
    expect(humanFieldMessage('timeout', 'timeout must not be less than 5')).toBe('At least 5 seconds');
    expect(humanFieldMessage('check_interval', 'check_interval must be at least 30 seconds')).toBe('At least 30 seconds');
    expect(humanFieldMessage('response_time_threshold', 'response_time_threshold must not be less than 1')).toBe('At least 1');
    expect(humanFieldMessage('name', 'name must be shorter than or equal to 200 characters')).toBe('At most 200 characters');
    expect(humanFieldMessage('tcp_send', 'tcp_send must be at most 1024 bytes as UTF-8')).toBe('At most 1024 bytes (a letter outside English can take 2 to 4)');
    expect(humanFieldMessage('url', 'url must be a URL the check can reach')).toBe('url must be a URL the check can reach');
  });
});
