import { isScenarioName, kindOf, SCENARIOS, typeOf, verifiesTls } from './scenarios';

describe('capacity scenarios', () => {
  it('names the scenarios `pnpm bench:capacity --scenario` accepts', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(['60k', 'default', 'dns', 'failing-mix', 'https', 'mixed', 'slow-mix', 'tcp']);
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

  it('makes the mixed scenario 70 % HTTP, 15 % TCP, 10 % DNS and 5 % ping, spread over every hundred', () => {
    const types = Array.from({ length: 1000 }, (_, i) => typeOf(i, SCENARIOS.mixed.mix));
    const share = (t: string): number => types.filter((x) => x === t).length;
    expect([share('http'), share('tcp'), share('dns'), share('ping')]).toEqual([700, 150, 100, 50]);
    expect(types.slice(0, 100).filter((t) => t === 'ping')).toHaveLength(5);
    expect(new Set(Array.from({ length: 100 }, (_, i) => typeOf(i, SCENARIOS.tcp.mix)))).toEqual(new Set(['tcp']));
    expect(new Set(Array.from({ length: 100 }, (_, i) => typeOf(i, SCENARIOS.default.mix)))).toEqual(new Set(['http']));
  });

  it('verifies TLS on half of the HTTPS monitors', () => {
    expect(Array.from({ length: 100 }, (_, i) => verifiesTls(i)).filter(Boolean)).toHaveLength(50);
  });
});
