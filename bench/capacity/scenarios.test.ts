import { isScenarioName, kindOf, SCENARIOS, verifiesTls } from './scenarios';

describe('capacity scenarios', () => {
  it('names the scenarios `pnpm bench:capacity --scenario` accepts', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(['60k', 'default', 'dns', 'failing-mix', 'https', 'slow-mix']);
    expect(isScenarioName('slow-mix')).toBe(true);
    expect(isScenarioName('toString')).toBe(false);
  });

  it('makes 20 % of the slow mix slow and 5 % of the failing mix hang, spread over every hundred', () => {
    const count = (mix: (typeof SCENARIOS)[keyof typeof SCENARIOS]['mix'], kind: string, n = 1000): number =>
      Array.from({ length: n }, (_, i) => kindOf(i, mix)).filter((k) => k === kind).length;
    expect(count(SCENARIOS['slow-mix'].mix, 'slow')).toBe(200);
    expect(count(SCENARIOS['slow-mix'].mix, 'hang')).toBe(0);
    expect(count(SCENARIOS['failing-mix'].mix, 'hang')).toBe(50);
    expect(count(SCENARIOS['failing-mix'].mix, 'slow')).toBe(0);
    expect(count(SCENARIOS.default.mix, 'fast')).toBe(1000);
    expect(count({ protocol: 'http', slowPercent: 20, hangPercent: 5 }, 'fast', 100)).toBe(75);
  });

  it('verifies TLS on half of the HTTPS monitors', () => {
    expect(Array.from({ length: 100 }, (_, i) => verifiesTls(i)).filter(Boolean)).toHaveLength(50);
  });
});
