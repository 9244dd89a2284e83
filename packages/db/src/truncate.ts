/** `s` cut to at most `max` characters, an ellipsis marking the cut; null stays null. */
export const truncate = (s: string | null, max: number): string | null => (s === null || s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** The most characters of a check's error kept (check results, their locations, alerts): the web app and the live stream show it as stored. */
export const CHECK_ERROR_MAX_LENGTH = 500;

/** A check's error as it is stored: cut to CHECK_ERROR_MAX_LENGTH. */
export const storedCheckError = (error: string | null): string | null => truncate(error, CHECK_ERROR_MAX_LENGTH);
