// The types of owasp-exceptions.cjs (the lists and their reasons are there), for spectral-owasp.test.ts.
export declare const CAPABILITY_URL_PATHS: readonly string[];
export declare const CAPABILITY_PARAMETER: string;
export declare const NOT_RATE_LIMITED_PATHS: readonly string[];
